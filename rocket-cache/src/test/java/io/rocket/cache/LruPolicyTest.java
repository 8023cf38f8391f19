package io.rocket.cache;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The LRU policy alone: its order, cold releases, and the keep set deciding which slots go last. */
class LruPolicyTest {
    /** Four slots holding items 10, 11, 12, 13, released in slot order (slot 0 oldest). */
    private static LruPolicy fourHeld() {
        LruPolicy lru = new LruPolicy();
        lru.init(4);
        for (int s = 0; s < 4; s++) {
            assertThat(lru.victim()).isEqualTo(s);
            lru.assigned(s, 10 + s);
        }
        for (int s = 0; s < 4; s++) {
            lru.unpinned(s);
        }
        return lru;
    }

    private static int slotOf(int item) {
        return item >= 10 && item < 14 ? item - 10 : -1;
    }

    @Test
    void evictsOldestFirst_coldBeforeAll() {
        LruPolicy lru = fourHeld();
        lru.pinned(2);
        lru.unpinnedCold(2);
        assertThat(lru.victim()).isEqualTo(2);
        assertThat(lru.victim()).isEqualTo(0);
        assertThat(lru.evictable()).isEqualTo(2);
        assertThat(lru.isEvictable(0)).isFalse();
        assertThat(lru.isEvictable(1)).isTrue();
    }

    @Test
    void keptSlotsGoLast_inTheirOwnOrder() {
        LruPolicy lru = fourHeld();
        lru.keep(new int[] {10, 12, 99}, LruPolicyTest::slotOf);
        assertThat(lru.victim()).as("oldest not kept").isEqualTo(1);
        assertThat(lru.victim()).isEqualTo(3);
        assertThat(lru.victim()).as("only kept left: the oldest of them").isEqualTo(0);
        assertThat(lru.victim()).isEqualTo(2);
        assertThat(lru.victim()).isEqualTo(-1);
    }

    @Test
    void anItemKeptBeforeItArrivesIsKeptFromItsAssignment_andANewSetReplacesTheOld() {
        LruPolicy lru = fourHeld();
        lru.keep(new int[] {20}, LruPolicyTest::slotOf);
        assertThat(lru.victim()).isEqualTo(0);
        lru.assigned(0, 20);
        lru.unpinned(0); // newest now, and kept
        lru.keep(new int[] {11}, item -> item == 20 ? 0 : slotOf(item));
        assertThat(lru.victim()).as("20 is no longer kept; 11 is").isEqualTo(2);
        assertThat(lru.victim()).isEqualTo(3);
        assertThat(lru.victim()).isEqualTo(0);
        assertThat(lru.victim()).isEqualTo(1);
    }

    @Test
    void anEmptyKeepSetIsPlainLru() {
        LruPolicy lru = fourHeld();
        lru.keep(new int[] {11}, LruPolicyTest::slotOf);
        lru.keep(new int[0], LruPolicyTest::slotOf);
        assertThat(lru.victim()).isEqualTo(0);
        assertThat(lru.victim()).isEqualTo(1);
    }
}
