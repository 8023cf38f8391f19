package io.rocket.core;

/** Loading one item failed; its message names the item and the problem. Pairs with the item fail with it. */
public class ItemException extends Exception {
    /** The index of the failed item in the key array. */
    private final int item;

    /**
     * Creates the exception; it has no stack trace of its own (the cause has it) and allows no suppressed ones.
     *
     * @param item the index of the failed item in the key array
     * @param message what failed, naming the item; shown to the user as is
     * @param cause the underlying error, or null
     */
    public ItemException(int item, String message, Throwable cause) {
        super(message, cause, false, false);
        this.item = item;
    }

    /**
     * The index of the item in the key array.
     *
     * @return the item's index, from 0 to the number of keys minus 1
     */
    public int item() {
        return item;
    }
}
