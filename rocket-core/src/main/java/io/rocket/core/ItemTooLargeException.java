package io.rocket.core;

/**
 * An item does not fit a buffer that the run sized before it started (a staging buffer, a cache slot), for example
 * one sized by an option such as a maximum number of residues. An application throws it, or a subclass, from
 * {@code parse} or {@code preprocess}; the item fails like any item that cannot be loaded, naming the size it needs.
 *
 * <p>Unlike other load failures it says nothing about the item itself: a run with larger buffers loads it. So a
 * result store ({@code --store}) does not keep the pairs that failed for it, and a later run computes them again;
 * and an option that only sizes buffers can be left out of a job's identity.
 */
public class ItemTooLargeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what does not fit, naming the item, the bytes it needs and the bytes the buffer holds
     * @param cause   the underlying error, or null
     */
    public ItemTooLargeException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Whether {@code error} or one of its causes is an {@link ItemTooLargeException}: whether a failure came from a
     * buffer this run sized too small rather than from the item.
     *
     * @param error a failure, possibly wrapped (an {@link ItemException} with the application's error as cause)
     * @return true when an {@code ItemTooLargeException} is in its cause chain
     */
    public static boolean isCause(Throwable error) {
        Throwable t = error;
        for (int depth = 0; t != null && depth < 32; depth++) { // bounded: a cause chain may loop
            if (t instanceof ItemTooLargeException) {
                return true;
            }
            t = t.getCause();
        }
        return false;
    }
}
