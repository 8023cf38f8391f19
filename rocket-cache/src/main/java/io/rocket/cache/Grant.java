package io.rocket.cache;

/** What a granted request must do for one of its items. */
public enum Grant {
    /** The item is readable now. */
    READY,
    /** The requester owns a fresh WRITE slot and must load the item, then publish or fail the slot. */
    LOAD,
    /** Another requester is loading the item; this one is told when it is readable. */
    WAIT,
    /** The item failed to load earlier; the slot holds its error. */
    FAILED
}
