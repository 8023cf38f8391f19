package io.rocket.cache;

/**
 * The consistency check of a byte-budget {@link SlotCache}'s memory, beside {@link SlotInvariants}: every slot that
 * holds an item being read holds a buffer, one being written reserves the bytes of one and holds it once written,
 * empty and failed slots hold and reserve none, the empty-slot stack counts
 * the empty slots, and the evictable bytes its slot storage keeps are those of its unreferenced slots.
 */
final class BudgetInvariants {
    private BudgetInvariants() {
    }

    static void check(String name, ByteBudget<?> budget, SlotState[] states, int[] refs, long evictableBytes,
                      int emptyCount) {
        long unreferenced = 0;
        int empty = 0;
        for (int s = 0; s < states.length; s++) {
            boolean holds = budget.buffer(s) != null;
            boolean reserves = budget.bytes(s) > 0;
            boolean shouldHold = states[s] == SlotState.READ;
            boolean mayHold = shouldHold || states[s] == SlotState.WRITE; // a load takes its buffer when written
            if (holds ? !mayHold : shouldHold) {
                throw new IllegalStateException(name + ": slot " + s + " is " + states[s]
                        + (holds ? " but holds a buffer" : " but holds no buffer"));
            }
            if (reserves != mayHold) {
                throw new IllegalStateException(name + ": slot " + s + " is " + states[s]
                        + (reserves ? " but reserves bytes" : " but reserves none"));
            }
            if (states[s] == SlotState.FREE) {
                empty++;
            } else if (refs[s] == 0) {
                unreferenced += budget.bytes(s);
            }
        }
        if (empty != emptyCount) {
            throw new IllegalStateException(name + ": " + empty + " empty slots, " + emptyCount + " on the stack");
        }
        if (unreferenced != evictableBytes) {
            throw new IllegalStateException(name + ": evictable bytes " + evictableBytes + ", slots say "
                    + unreferenced);
        }
        if (budget.unreserved() < 0 && refs.length > 0 && evictableBytes > 0) {
            throw new IllegalStateException(name + ": over budget by " + -budget.unreserved()
                    + " bytes while slots could be evicted");
        }
    }
}
