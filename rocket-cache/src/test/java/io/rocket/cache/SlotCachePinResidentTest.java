package io.rocket.cache;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Pinning a run of readable items at once, as a worker does before it runs a row of pairs inline. */
class SlotCachePinResidentTest {
    private final SlotCache<int[]> cache = new SlotCache<>("test", 10, 3, 4, s -> new int[1], new LruPolicy());

    private void loadAndRelease(int item) {
        RecordingRequest r = new RecordingRequest(item);
        cache.acquire(r);
        cache.buffer(r.slot(0))[0] = item;
        cache.publish(r.slot(0));
        cache.release(r);
    }

    @Test
    void pinResident_allReadable_pinsThemAndUnpinCountsHits() {
        loadAndRelease(1);
        loadAndRelease(2);
        int[] slots = new int[2];
        assertThat(cache.pinResident(new int[] {1, 2}, 2, slots)).isTrue();
        assertThat(cache.buffer(slots[0])[0]).isEqualTo(1);
        assertThat(cache.buffer(slots[1])[0]).isEqualTo(2);
        long hitsBefore = cache.stats().hits();
        cache.unpin(slots, 2, 6);
        assertThat(cache.stats().hits()).isEqualTo(hitsBefore + 6);
        cache.checkInvariants(true);
    }

    @Test
    void pinResident_oneAbsent_pinsNothing() {
        loadAndRelease(1);
        int[] slots = new int[2];
        assertThat(cache.pinResident(new int[] {1, 5}, 2, slots)).isFalse();
        cache.checkInvariants(true); // nothing referenced
    }

    @Test
    void pinResident_oneStillLoading_pinsNothing() {
        loadAndRelease(1);
        RecordingRequest loading = new RecordingRequest(2);
        cache.acquire(loading);
        assertThat(cache.pinResident(new int[] {1, 2}, 2, new int[2])).isFalse();
        cache.publish(loading.slot(0));
        cache.release(loading);
        cache.checkInvariants(true);
    }

    @Test
    void pinned_slotsAreNotEvicted_andUnpinGrantsTheBlockedRequest() {
        loadAndRelease(1);
        loadAndRelease(2);
        loadAndRelease(3);
        int[] slots = new int[3];
        assertThat(cache.pinResident(new int[] {1, 2, 3}, 3, slots)).isTrue();
        RecordingRequest miss = new RecordingRequest(4);
        cache.acquire(miss);
        assertThat(miss.isGranted()).isFalse(); // every slot pinned: it waits, holding nothing
        cache.unpin(slots, 3, 0);
        assertThat(miss.isGranted()).isTrue();
        assertThat(miss.grant(0)).isEqualTo(Grant.LOAD);
        cache.publish(miss.slot(0));
        cache.release(miss);
        cache.checkInvariants(true);
    }
}
