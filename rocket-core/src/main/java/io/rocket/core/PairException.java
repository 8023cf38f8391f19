package io.rocket.core;

/**
 * Comparing or postprocessing one pair failed although both items loaded; its message names the pair, both items
 * and the step. Unlike an {@link ItemException}, it concerns that pair alone.
 */
public class PairException extends Exception {

    /**
     * Creates the exception; it has no stack trace of its own (the cause has it) and allows no suppressed ones.
     *
     * @param message what failed, naming the pair, both items and the step; shown to the user as is
     * @param cause the exception the application or the device threw, or null
     */
    public PairException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
