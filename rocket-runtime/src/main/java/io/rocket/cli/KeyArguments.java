package io.rocket.cli;

import io.rocket.core.RocketException;
import io.rocket.inputs.InputLocations;
import io.rocket.inputs.ListFile;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The key arguments of the generic command as key texts: {@code @FILE} gives FILE's lines (UTF-8; a trailing
 * {@code \r} dropped, blank lines skipped, {@code @@TEXT} the text {@code @TEXT}), a directory its regular files
 * whose names do not start with a dot, sorted by name (not recursive), anything else itself. A missing or unreadable
 * key file or directory is a {@link CommandFailure}.
 */
final class KeyArguments {

    private KeyArguments() {
    }

    /** The key texts of the arguments, in order. */
    static List<String> texts(List<String> arguments) {
        List<String> texts = new ArrayList<>();
        for (String argument : arguments) {
            if (argument.startsWith("@@")) {
                texts.add(argument.substring(1));
            } else if (argument.startsWith("@")) {
                texts.addAll(readKeyFile(argument.substring(1)));
            } else {
                Path dir = directory(argument);
                if (dir != null) {
                    texts.addAll(listDirectory(argument, dir));
                } else {
                    texts.add(argument);
                }
            }
        }
        return texts;
    }

    private static List<String> readKeyFile(String name) {
        if (name.isEmpty()) {
            throw new CommandFailure(ExitCode.USAGE, "'@' names no key file: write @FILE");
        }
        Path file;
        try {
            file = Path.of(name);
        } catch (InvalidPathException e) {
            throw new CommandFailure(ExitCode.USAGE, "key file " + name + ": not a valid path");
        }
        if (!ListFile.isStdin(file) && !Files.exists(file)) {
            throw new CommandFailure(ExitCode.USAGE, "key file " + name + " not found");
        }
        if (!ListFile.isStdin(file) && Files.isDirectory(file)) {
            throw new CommandFailure(ExitCode.USAGE, "key file " + name + " is a directory (give the directory "
                    + "itself, without @, to use its files as keys)");
        }
        List<String> lines = new ArrayList<>();
        try (BufferedReader in = ListFile.open(file)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.endsWith("\r")) {
                    line = line.substring(0, line.length() - 1);
                }
                if (!line.isBlank()) {
                    lines.add(line);
                }
            }
        } catch (NoSuchFileException e) {
            throw new CommandFailure(ExitCode.USAGE, "key file " + name + " not found");
        } catch (CharacterCodingException e) {
            throw new CommandFailure(ExitCode.ERROR, "cannot read key file " + name + ": it is not UTF-8 text");
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.ERROR, "cannot read key file " + name + ": " + e.getMessage());
        }
        return lines;
    }

    private static Path directory(String argument) {
        try {
            Path path = InputLocations.isUri(argument) ? InputLocations.defaults().resolve(argument)
                    : Path.of(argument);
            return Files.isDirectory(path) ? path : null;
        } catch (InvalidPathException | RocketException e) {
            return null; // not a directory we can list: the text is a key, and its parser says what is wrong
        }
    }

    private static List<String> listDirectory(String argument, Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            // A dangling link is a file that cannot be read: kept, so that its key fails naming it.
            return entries.filter(p -> !p.getFileName().toString().startsWith(".")
                            && (Files.isRegularFile(p) || InputLocations.isDanglingLink(p)))
                    .sorted(Comparator.comparing(p -> p.getFileName().toString()))
                    .map(InputLocations::display)
                    .toList();
        } catch (IOException | RuntimeException e) {
            throw new CommandFailure(ExitCode.ERROR, "cannot list directory " + argument + ": " + e.getMessage());
        }
    }
}
