package io.rocket.cache;

/**
 * The consistency check of a {@link SlotCache}'s internals, kept apart from the cache's grant protocol: tests and
 * the end of a run call it through {@link SlotCache#checkInvariants}, under the cache's lock.
 */
final class SlotInvariants {
    private SlotInvariants() {
    }

    /**
     * Throws unless the maps are inverse, references are non-negative, exactly the unreferenced slots are evictable
     * by the policy, every WRITE slot has its loader, and when {@code quiescent} nothing is referenced, loading,
     * waited for or blocked. With {@code emptyApart} (a byte-budget cache) empty slots wait apart from the policy and
     * are not evictable.
     */
    static void check(String name, EvictionPolicy policy, int[] slotOf, int[] itemOf, SlotState[] states, int[] refs,
                      SlotWaiters waiters, int blocked, boolean quiescent, boolean emptyApart) {
        int evictable = 0;
        for (int s = 0; s < itemOf.length; s++) {
            if (refs[s] < 0) {
                throw new IllegalStateException(name + ": slot " + s + " has " + refs[s] + " references");
            }
            boolean shouldEvict = refs[s] == 0 && !(emptyApart && states[s] == SlotState.FREE);
            if (shouldEvict) {
                evictable++;
            }
            if (policy.isEvictable(s) != shouldEvict) {
                throw new IllegalStateException(name + ": slot " + s + " evictable flag disagrees with refs");
            }
            int item = itemOf[s];
            if (item >= 0 && slotOf[item] != s) {
                throw new IllegalStateException(name + ": slot " + s + " holds " + item + " but map disagrees");
            }
            if ((item < 0) != (states[s] == SlotState.FREE)) {
                throw new IllegalStateException(name + ": slot " + s + " state " + states[s] + " item " + item);
            }
            if (states[s] == SlotState.WRITE && refs[s] == 0) {
                throw new IllegalStateException(name + ": slot " + s + " is WRITE without its loader");
            }
            if (quiescent && (refs[s] != 0 || states[s] == SlotState.WRITE || !waiters.isEmpty(s))) {
                throw new IllegalStateException(name + ": slot " + s + " busy after the run: " + states[s]
                        + " refs " + refs[s]);
            }
        }
        if (evictable != policy.evictable()) {
            throw new IllegalStateException(name + ": policy has " + policy.evictable() + " evictable, slots "
                    + evictable);
        }
        for (int item = 0; item < slotOf.length; item++) {
            if (slotOf[item] >= 0 && itemOf[slotOf[item]] != item) {
                throw new IllegalStateException(name + ": item " + item + " map disagrees");
            }
        }
        if (quiescent && blocked > 0) {
            throw new IllegalStateException(name + ": " + blocked + " requests still blocked");
        }
    }
}
