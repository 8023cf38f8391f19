package io.rocket.core;

/** A user-facing error: bad options, bad input, an unusable device. Its message is meant to be shown as is. */
public class RocketException extends RuntimeException {
    public RocketException(String message) {
        super(message);
    }

    public RocketException(String message, Throwable cause) {
        super(message, cause);
    }
}
