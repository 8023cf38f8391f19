package io.rocket.cache;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SlotCacheTest {
    private SlotCache<int[]> cache;

    private SlotCache<int[]> cache(int items, int slots) {
        cache = new SlotCache<>("test", items, slots, 4, s -> new int[1], new LruPolicy());
        return cache;
    }

    @AfterEach
    void invariants() {
        if (cache != null) {
            cache.checkInvariants(false);
        }
    }

    /** Loads every LOAD item of a granted request and publishes it. */
    private void loadAll(RecordingRequest r) {
        for (int p = 0; p < r.count(); p++) {
            if (r.grant(p) == Grant.LOAD) {
                cache.buffer(r.slot(p))[0] = r.item(p);
                cache.publish(r.slot(p));
            }
        }
    }

    private void loadAndRelease(int item) {
        RecordingRequest r = new RecordingRequest(item);
        cache.acquire(r);
        loadAll(r);
        cache.release(r);
    }

    @Test
    void buffers_eagerByDefault_onFirstUseWhenAsked() {
        java.util.concurrent.atomic.AtomicInteger made = new java.util.concurrent.atomic.AtomicInteger();
        new SlotCache<>("eager", 10, 4, 4, s -> new int[] {made.incrementAndGet()}, new LruPolicy());
        assertThat(made.get()).isEqualTo(4);

        made.set(0);
        cache = new SlotCache<>("lazy", 10, 4, 4, s -> new int[] {made.incrementAndGet()}, new LruPolicy(), true);
        assertThat(made.get()).isZero();
        assertThat(cache.slots()).isEqualTo(4);
        int[] first = cache.buffer(2);
        assertThat(cache.buffer(2)).isSameAs(first);
        assertThat(made.get()).isEqualTo(1);
        loadAndRelease(7);
        assertThat(made.get()).isEqualTo(2);
    }

    @Test
    void acquire_miss_grantsLoadAndSettlesOnPublish() {
        cache(10, 4);
        RecordingRequest r = new RecordingRequest(1, 2);
        cache.acquire(r);
        assertThat(r.isGranted()).isTrue();
        assertThat(r.grant(0)).isEqualTo(Grant.LOAD);
        assertThat(r.grant(1)).isEqualTo(Grant.LOAD);
        assertThat(r.isSettled()).isFalse();
        loadAll(r);
        assertThat(r.isSettled()).isTrue();
        assertThat(cache.buffer(r.slot(0))[0]).isEqualTo(1);
        cache.release(r);
        assertThat(cache.stats().misses()).isEqualTo(2);
        cache.checkInvariants(true);
    }

    @Test
    void acquire_hitWhileLoading_waitsAndSettlesWithLoader() {
        cache(10, 4);
        RecordingRequest loader = new RecordingRequest(1, 2);
        cache.acquire(loader);
        RecordingRequest reader = new RecordingRequest(2, 3);
        cache.acquire(reader);
        assertThat(reader.grant(0)).isEqualTo(Grant.WAIT);
        assertThat(reader.grant(1)).isEqualTo(Grant.LOAD);
        loadAll(reader);
        assertThat(reader.isSettled()).isFalse();
        loadAll(loader);
        assertThat(reader.isSettled()).isTrue();
        assertThat(cache.stats().waits()).isEqualTo(1);
        cache.release(loader);
        cache.release(reader);
        cache.checkInvariants(true);
    }

    @Test
    void releaseCold_makesTheSlotTheNextToEvict_evenThoughItWasReleasedLast() {
        cache(10, 3);
        for (int item = 0; item < 3; item++) {
            loadAndRelease(item); // recency 0, 1, 2 (oldest first)
        }
        RecordingRequest served = new RecordingRequest(2);
        assertThat(cache.pinIfPresent(served)).isTrue();
        cache.releaseCold(served); // a read for another node: 2 goes first, not last
        loadAndRelease(3);
        assertThat(cache.contains(2)).isFalse();
        assertThat(cache.contains(0)).isTrue();
        assertThat(cache.contains(1)).isTrue();
        cache.checkInvariants(true);
    }

    /**
     * Kept items outlive a stream of others passing through (a cluster band's next rows), including one asked for
     * before it arrived; a new set replaces the old; when only kept items are evictable, the oldest of them goes.
     */
    @Test
    void keep_evictsOtherItemsFirst_thenTheOldestKept() {
        cache(100, 4);
        cache.keep(new int[] {0, 7});
        loadAndRelease(0);
        loadAndRelease(7); // kept from when it arrives
        for (int item = 10; item < 30; item++) {
            loadAndRelease(item);
        }
        assertThat(cache.contains(0)).isTrue();
        assertThat(cache.contains(7)).isTrue();
        assertThat(cache.contains(29)).isTrue();

        cache.keep(new int[] {1, 2, 3});
        loadAndRelease(30); // 0 and 7 are ordinary again, the oldest of the unkept: 0 goes
        assertThat(cache.contains(0)).isFalse();
        assertThat(cache.contains(7)).isTrue();

        cache.keep(new int[] {7, 29, 30, 31});
        loadAndRelease(31); // 28 (unkept) goes; now all four slots hold kept items
        loadAndRelease(32);
        assertThat(cache.contains(7)).as("the oldest kept goes when nothing else can").isFalse();
        assertThat(cache.contains(31)).isTrue();
        cache.checkInvariants(true);
    }

    @Test
    void acquire_full_evictsLeastRecentlyReleased() {
        cache(10, 2);
        RecordingRequest a = new RecordingRequest(0, 1);
        cache.acquire(a);
        loadAll(a);
        cache.release(a);
        RecordingRequest b = new RecordingRequest(1);
        cache.acquire(b);
        assertThat(b.grant(0)).isEqualTo(Grant.READY);
        cache.release(b); // 1 is now more recent than 0
        RecordingRequest c = new RecordingRequest(5);
        cache.acquire(c);
        loadAll(c);
        cache.release(c);
        assertThat(cache.contains(0)).isFalse();
        assertThat(cache.contains(1)).isTrue();
        assertThat(cache.stats().evictions()).isEqualTo(1);
    }

    @Test
    void acquire_twoSlotsAllPinned_blocksWithoutHoldingAndProceedsFifo() {
        cache(10, 2);
        RecordingRequest first = new RecordingRequest(0, 1);
        cache.acquire(first);
        RecordingRequest second = new RecordingRequest(1, 2);
        RecordingRequest third = new RecordingRequest(3, 4);
        cache.acquire(second);
        cache.acquire(third);
        assertThat(second.isGranted()).isFalse();
        assertThat(third.isGranted()).isFalse();
        loadAll(first);
        cache.release(first);
        assertThat(second.isGranted()).isTrue();
        assertThat(second.grant(0)).isEqualTo(Grant.READY);
        assertThat(third.isGranted()).isFalse();
        loadAll(second);
        cache.release(second);
        assertThat(third.isGranted()).isTrue();
        loadAll(third);
        cache.release(third);
        cache.checkInvariants(true);
    }

    @Test
    void fail_settlesWaitersWithErrorAndLaterRequestsFailFast() {
        cache(10, 4);
        RecordingRequest loader = new RecordingRequest(7);
        cache.acquire(loader);
        RecordingRequest waiter = new RecordingRequest(7, 8);
        cache.acquire(waiter);
        loadAll(waiter);
        IllegalStateException boom = new IllegalStateException("item 7 is corrupt");
        cache.fail(loader.slot(0), boom);
        assertThat(loader.isSettled()).isTrue();
        assertThat(loader.error(0)).isSameAs(boom);
        assertThat(waiter.isSettled()).isTrue();
        assertThat(waiter.error(0)).isSameAs(boom);
        assertThat(waiter.error(1)).isNull();
        assertThat(waiter.anyFailed()).isTrue();
        cache.release(loader);
        cache.release(waiter);
        RecordingRequest later = new RecordingRequest(7);
        cache.acquire(later);
        assertThat(later.grant(0)).isEqualTo(Grant.FAILED);
        assertThat(later.isSettled()).isTrue();
        assertThat(later.error(0)).isSameAs(boom);
        cache.release(later);
        cache.checkInvariants(true);
    }

    @Test
    void release_beforeLoadEnds_isRejected() {
        cache(10, 2);
        RecordingRequest r = new RecordingRequest(1);
        cache.acquire(r);
        assertThatThrownBy(() -> cache.release(r)).isInstanceOf(IllegalStateException.class);
        loadAll(r);
        cache.release(r);
    }

    @Test
    void constructor_oneSlot_rejected() {
        assertThatThrownBy(() -> new SlotCache<>("x", 3, 1, 1, s -> new int[1], new LruPolicy()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 2");
    }
}
