package io.rocket.cli;

import java.util.Objects;

/**
 * A command-line problem the user can fix: it is shown as one line on stderr ({@code rocket: MESSAGE}, no stack
 * trace) and ends the command with its exit code. Thrown while a command line is read or checked (a missing key
 * file, an unusable application class); errors of the run itself are {@link io.rocket.core.RocketException}s.
 */
public final class CommandFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The exit code the command ends with. */
    private final ExitCode exitCode;

    /**
     * A problem with its exit code and message.
     *
     * @param exitCode the exit code the command ends with, usually {@link ExitCode#USAGE}
     * @param message the one line shown after {@code rocket: }
     */
    public CommandFailure(ExitCode exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = Objects.requireNonNull(exitCode, "exitCode");
    }

    /**
     * The exit code the command ends with.
     *
     * @return the exit code
     */
    public ExitCode exitCode() {
        return exitCode;
    }
}
