package io.rocket.core;

/** Loading one item failed; its message names the item and the problem. Pairs with the item fail with it. */
public class ItemException extends Exception {
    private final int item;

    public ItemException(int item, String message, Throwable cause) {
        super(message, cause, false, false);
        this.item = item;
    }

    /** The index of the item in the key array. */
    public int item() {
        return item;
    }
}
