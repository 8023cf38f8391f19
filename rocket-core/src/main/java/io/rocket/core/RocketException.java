package io.rocket.core;

/** A user-facing error: bad options, bad input, an unusable device. Its message is meant to be shown as is. */
public class RocketException extends RuntimeException {
    /**
     * Creates the exception.
     *
     * @param message the message for the user, shown as is
     */
    public RocketException(String message) {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message the message for the user, shown as is
     * @param cause the underlying error (logged for diagnosis), or null
     */
    public RocketException(String message, Throwable cause) {
        super(message, cause);
    }
}
