package io.rocket.core;

/**
 * A {@link RocketException} for a command line that asks for something it cannot have: an option out of range,
 * two options that exclude each other, an option that needs another. The command ends with the usage exit code
 * (2), as a malformed option does, rather than the error code of a run that failed; the message names the option.
 */
public class UsageException extends RocketException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the message for the user, naming the option, shown as is
     */
    public UsageException(String message) {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message the message for the user, naming the option, shown as is
     * @param cause the underlying error, or null
     */
    public UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
