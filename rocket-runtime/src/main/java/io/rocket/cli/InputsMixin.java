package io.rocket.cli;

import io.rocket.core.RocketException;
import io.rocket.inputs.InputLocations;
import io.rocket.inputs.ListFile;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Where an application command's inputs are: a directory argument or {@code --input-list LIST}, either given as a
 * local path or a URI ({@code file:}, {@code sftp://}, {@code s3://}; {@code https://} in lists). Like the runtime
 * options, these are not part of a job's identity: the same inputs listed another way, or read from elsewhere, are
 * the same job as long as their labels are.
 */
public final class InputsMixin {

    @Option(names = "--input-list", paramLabel = "LIST", description = "Read the inputs named in LIST, one per line "
            + "(a local path, file:, sftp://[user@]host[:port]/path, s3://bucket/key or https:// URL; blank lines "
            + "and # comments skipped; -: standard input), instead of listing a directory.")
    Path inputList;

    /** Options at their defaults; picocli sets the ones given. */
    public InputsMixin() {
    }

    /**
     * The inputs of {@code --input-list}, resolved, in list order; empty without one.
     *
     * @return the listed paths, each resolved to its file system (connecting to remote storage as needed); an
     *         empty list when {@code --input-list} was not given
     * @throws RocketException when the list cannot be read or an entry cannot be resolved
     */
    public List<Path> listed() {
        return inputList == null ? List.of() : InputLocations.defaults().readList(inputList);
    }

    /**
     * Where the items come from.
     *
     * @param directory the directory to list, or null with a list
     * @param listed    the listed inputs in list order, or null with a directory
     * @param name      how messages name the source: the directory's URI, or the list file
     */
    public record Source(Path directory, List<Path> listed, String name) {
    }

    /**
     * The source given on the command line: {@code dir} (resolved to its file system, connecting to remote storage)
     * or the list.
     *
     * @param dir the directory argument as typed (a local path or a URI), or null when none was given
     * @param what what the directory holds ("photos"), for the message when neither or both are given
     * @return the source: the resolved directory, or the resolved list entries in list order
     * @throws CommandFailure  ({@link ExitCode#USAGE}) when {@code dir} is not a directory
     * @throws RocketException naming the problem when neither or both are given, or an input cannot be resolved
     */
    public Source source(String dir, String what) {
        if (dir != null && inputList != null) {
            throw new RocketException("give either a directory of " + what + " or --input-list LIST, not both");
        }
        if (dir == null && inputList == null) {
            throw new RocketException("give a directory of " + what + " or --input-list LIST");
        }
        InputLocations locations = InputLocations.defaults();
        if (inputList != null) {
            return new Source(null, locations.readList(inputList), ListFile.display(inputList));
        }
        Path resolved = locations.resolve(dir);
        if (!Files.isDirectory(resolved)) {
            throw new CommandFailure(ExitCode.USAGE, dir + (Files.exists(resolved)
                    ? ": not a directory: give the input directory of " + what + ", or a list file as --input-list "
                            + dir
                    : ": no such input directory (give the directory of " + what + ", or a list of them with "
                            + "--input-list LIST)"));
        }
        return new Source(resolved, null, InputLocations.display(resolved));
    }
}
