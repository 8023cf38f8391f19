package io.rocket.apps.generate;

import io.rocket.cli.CommandFailure;
import io.rocket.cli.ExitCode;
import io.rocket.core.RocketException;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The output directory of every {@code rocket generate} command ({@code --out DIR}, {@code --force}), mixed into
 * each: a data set is written into a new or empty directory only, so that a mistyped {@code --out} cannot write
 * over another data set or mix two sets (and their truth files) in one directory, unless {@code --force} says so.
 */
public final class GeneratedDataOutput {

    @Option(names = "--out", paramLabel = "DIR", required = true,
            description = "Output directory: created if missing; an existing one must be empty unless --force.")
    Path out;

    @Option(names = "--force",
            description = "Write into DIR even when it is not empty: files of the same names are replaced, other files "
                    + "stay (an earlier, larger set's extra files among them).")
    boolean force;

    /**
     * The directory to write the data set to, after the check: a missing directory or an empty one is fine, and
     * with {@code --force} any directory.
     *
     * @return {@code --out}
     * @throws CommandFailure with {@link ExitCode#USAGE} when {@code --out} is a file, or a directory that is not
     *         empty and {@code --force} is not given
     */
    public Path directory() {
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new CommandFailure(ExitCode.USAGE, "--out " + out + " is a file, not a directory");
        }
        if (!force && Files.isDirectory(out) && !isEmpty(out)) {
            throw new CommandFailure(ExitCode.USAGE, "--out " + out + " is not empty: pass --force to write the data "
                    + "set into it anyway (replacing files of the same names), or choose an empty directory");
        }
        return out;
    }

    private static boolean isEmpty(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        } catch (IOException e) {
            throw new RocketException("cannot read --out " + dir + ": " + e.getMessage(), e);
        }
    }
}
