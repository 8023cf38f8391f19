package io.rocket.cli;

import io.rocket.core.UsageException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks the files a command line asks a command to write ({@link OutputFile} options) before the command reads its
 * first item: a run whose outputs cannot be written is refused in a second, with the option and the directory named,
 * instead of failing after every pair is computed. {@code -} is standard output, for {@code --output} alone.
 */
public final class OutputPaths {
    /** The name of standard output where an option takes a file. */
    public static final String STDOUT = "-";

    private OutputPaths() {
    }

    /**
     * Checks every {@link OutputFile} option {@code command} was given.
     *
     * @param command the command about to run, its options parsed
     * @throws UsageException naming the option and the problem: a missing directory, one that is not a directory or
     *         cannot be written, an output that is a directory or a file that cannot be written, or (for the pair
     *         outputs, {@link OutputFile#pairFormats}) a name whose suffix is no known format
     */
    public static void check(CommandSpec command) {
        for (OptionSpec option : command.options()) {
            OutputFile output = option.userObject() instanceof Field field ? field.getAnnotation(OutputFile.class)
                    : null;
            if (output == null || !(option.getValue() instanceof Path path)) {
                continue;
            }
            String name = option.longestName();
            if (isStdout(path)) {
                if (output.pairFormats() && name.equals("--output")) {
                    continue;
                }
                throw new UsageException(name + " -: only --output writes to standard output; give a file");
            }
            if (output.pairFormats()) {
                OutputFormat.of(name, path); // a typo in the suffix is refused before anything runs
            }
            check(name, path);
        }
    }

    /**
     * Checks one output file.
     *
     * @param option the option that named it, for the message
     * @param file the file as given
     * @throws UsageException naming the option and the problem
     */
    public static void check(String option, Path file) {
        Path absolute = file.toAbsolutePath();
        Path dir = absolute.getParent();
        if (Files.isDirectory(absolute)) {
            throw new UsageException(option + " " + file + ": is a directory; give a file name");
        }
        if (dir == null || !Files.exists(dir)) {
            throw new UsageException(option + " " + file + ": no directory " + shown(file, dir)
                    + " (make it first, or write elsewhere)");
        }
        if (!Files.isDirectory(dir)) {
            throw new UsageException(option + " " + file + ": " + shown(file, dir) + " is not a directory");
        }
        if (Files.exists(absolute) ? !Files.isWritable(absolute) : !Files.isWritable(dir)) {
            throw new UsageException(option + " " + file + ": cannot write "
                    + (Files.exists(absolute) ? "the file" : "in " + shown(file, dir)) + " (permission denied)");
        }
    }

    /**
     * Whether a file option names standard output.
     *
     * @param file the file as given, or null
     * @return true for {@code -}
     */
    public static boolean isStdout(Path file) {
        return file != null && file.toString().equals(STDOUT);
    }

    /** The directory as the user wrote it where they named one, else its absolute form. */
    private static String shown(Path file, Path dir) {
        Path given = file.getParent();
        return given != null ? given.toString() : String.valueOf(dir);
    }
}
