package io.rocket.cache;

/**
 * The state of one cache slot. Legal transitions (all under the cache lock):
 * <pre>
 *   FREE    --acquire miss-->  WRITE      (one loader owns the slot)
 *   WRITE   --publish------->  READ       (waiters become readers)
 *   WRITE   --fail---------->  INVALID    (waiters fail with the item's error)
 *   READ / INVALID / FREE --evicted (no references)--> WRITE for another item
 * </pre>
 * A slot with references is never evicted; READ(n) is READ with n references.
 */
public enum SlotState {
    FREE,
    WRITE,
    READ,
    INVALID
}
