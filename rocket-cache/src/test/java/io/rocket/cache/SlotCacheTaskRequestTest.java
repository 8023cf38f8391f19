package io.rocket.cache;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests for many items at once, as a task of many pairs makes them: all pinned together or none, an item named
 * twice pinned twice (and loaded once), and the task's extra lookups counted when it releases.
 */
class SlotCacheTaskRequestTest {
    private final SlotCache<int[]> cache = new SlotCache<>("test", 10, 4, 4, s -> new int[1], new LruPolicy());

    private void loadAndRelease(int item) {
        RecordingRequest r = new RecordingRequest(item);
        cache.acquire(r);
        cache.buffer(r.slot(0))[0] = item;
        cache.publish(r.slot(0));
        cache.release(r);
    }

    @Test
    void allReadable_grantedAndSettledAtOnce_releaseCountsTheTasksLookups() {
        loadAndRelease(1);
        loadAndRelease(2);
        loadAndRelease(3);
        RecordingRequest task = new RecordingRequest(1, 2, 3);
        long hitsBefore = cache.stats().hits();
        cache.acquire(task);
        assertThat(task.isSettled()).isTrue();
        for (int p = 0; p < 3; p++) {
            assertThat(task.grant(p)).isEqualTo(Grant.READY);
            assertThat(cache.buffer(task.slot(p))[0]).isEqualTo(task.item(p));
        }
        cache.release(task, 7);
        assertThat(cache.stats().hits()).isEqualTo(hitsBefore + 3 + 7);
        cache.checkInvariants(true);
    }

    @Test
    void anItemNamedTwiceWhileAbsent_loadsOnce_bothPositionsSettleWithIt() {
        loadAndRelease(1);
        RecordingRequest task = new RecordingRequest(5, 1, 5);
        cache.acquire(task);
        assertThat(task.grant(0)).isEqualTo(Grant.LOAD);
        assertThat(task.grant(1)).isEqualTo(Grant.READY);
        assertThat(task.grant(2)).isEqualTo(Grant.WAIT);
        assertThat(task.slot(2)).isEqualTo(task.slot(0));
        assertThat(cache.stats().misses()).isEqualTo(2); // item 1 once before, item 5 once now
        assertThat(task.isSettled()).isFalse();
        cache.buffer(task.slot(0))[0] = 5;
        cache.publish(task.slot(0));
        assertThat(task.isSettled()).isTrue();
        assertThat(task.settled.get()).isEqualTo(1);
        cache.release(task);
        cache.checkInvariants(true); // both pins of item 5 gone
    }

    @Test
    void anItemNamedTwiceWhilePresent_pinnedTwice_oneReleaseDropsBoth() {
        loadAndRelease(1);
        loadAndRelease(2);
        RecordingRequest task = new RecordingRequest(1, 2, 1);
        cache.acquire(task);
        assertThat(task.isSettled()).isTrue();
        assertThat(task.slot(0)).isEqualTo(task.slot(2));
        cache.release(task);
        cache.checkInvariants(true);
    }

    @Test
    void aLoadThatFails_failsEveryPositionOfItsItem_theOthersStayReadable() {
        loadAndRelease(1);
        RecordingRequest task = new RecordingRequest(6, 1, 6);
        cache.acquire(task);
        cache.fail(task.slot(0), new IllegalStateException("bad item 6"));
        assertThat(task.isSettled()).isTrue();
        assertThat(task.error(0)).hasMessage("bad item 6");
        assertThat(task.error(2)).hasMessage("bad item 6");
        assertThat(task.error(1)).isNull();
        cache.release(task);
        cache.checkInvariants(true);
    }

    @Test
    void noRoomForAll_pinsNothing_untilReleaseMakesRoom() {
        loadAndRelease(1);
        RecordingRequest holder = new RecordingRequest(2, 3);
        cache.acquire(holder); // two slots loading, pinned
        RecordingRequest task = new RecordingRequest(1, 4, 7); // needs two more slots: only one is free
        cache.acquire(task);
        assertThat(task.isGranted()).isFalse();
        cache.checkInvariants(false);
        cache.publish(holder.slot(0));
        cache.publish(holder.slot(1));
        cache.release(holder);
        assertThat(task.isGranted()).isTrue();
        assertThat(task.grant(0)).isEqualTo(Grant.READY);
        cache.publish(task.slot(1));
        cache.publish(task.slot(2));
        assertThat(task.isSettled()).isTrue();
        cache.release(task);
        cache.checkInvariants(true);
    }
}
