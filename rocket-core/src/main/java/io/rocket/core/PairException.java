package io.rocket.core;

/**
 * Comparing or postprocessing one pair failed although both items loaded; its message names the pair, both items
 * and the step. Unlike an {@link ItemException}, it concerns that pair alone.
 */
public class PairException extends Exception {

    public PairException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
