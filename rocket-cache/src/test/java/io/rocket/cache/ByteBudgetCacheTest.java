package io.rocket.cache;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A cache whose capacity is bytes: items of 1 byte to the declared maximum, each taking the space it needs. */
class ByteBudgetCacheTest {
    private static final long MAX = 10_000;

    /** A heap buffer standing in for host memory, counting what is made. */
    static final class Buf {
        final byte[] data;
        long length;

        Buf(long bytes) {
            data = new byte[(int) bytes];
        }
    }

    static final class Memory implements SlotMemory<Buf> {
        final List<Buf> made = new ArrayList<>();

        @Override
        public Buf allocate(long bytes) {
            Buf b = new Buf(bytes);
            made.add(b);
            return b;
        }

        @Override
        public long length(Buf buffer) {
            return buffer.length;
        }

        @Override
        public void copy(Buf from, Buf to, long length) {
            System.arraycopy(from.data, 0, to.data, 0, (int) length);
            to.length = length;
        }
    }

    private final Memory memory = new Memory();
    private SlotCache<Buf> cache;

    @AfterEach
    void invariants() {
        if (cache != null) {
            cache.checkInvariants(true);
        }
    }

    private static long sizeOf(int item) {
        return item % 3 == 0 ? MAX : 1 + (item * 7919L) % 300;
    }

    /** Writes the item's bytes (its index mixed with the offset) into the slot the cache gave for loading it. */
    private void load(RecordingRequest r, int p) {
        Buf b = cache.buffer(r.slot(p));
        assertThat(b.data.length).isEqualTo(MAX);
        int item = r.item(p);
        long n = sizeOf(item);
        for (int k = 0; k < n; k++) {
            b.data[k] = (byte) (item * 31 + k);
        }
        b.length = n;
        cache.publish(r.slot(p));
    }

    private void check(int item, Buf b) {
        long n = sizeOf(item);
        assertThat(b.length).as("length of item %d", item).isEqualTo(n);
        for (int k = 0; k < n; k++) {
            assertThat(b.data[k]).as("item %d byte %d", item, k).isEqualTo((byte) (item * 31 + k));
        }
    }

    /** Acquires the items, loads the missing ones, checks every byte, releases. Returns how many it loaded. */
    private int use(int... items) {
        RecordingRequest r = new RecordingRequest(items);
        cache.acquire(r);
        assertThat(r.isGranted()).isTrue();
        int loads = 0;
        for (int p = 0; p < r.count(); p++) {
            if (r.grant(p) == Grant.LOAD) {
                load(r, p);
                loads++;
            }
        }
        for (int p = 0; p < r.count(); p++) {
            check(r.item(p), cache.buffer(r.slot(p)));
        }
        cache.release(r);
        return loads;
    }

    @Test
    void loadsGrantedTogether_takeTheirLargeBuffersOnlyWhenWritten_andShareThem() {
        cache = new SlotCache<>("L1", 20, 10 * MAX, MAX, memory, new LruPolicy());
        RecordingRequest task = new RecordingRequest(1, 2, 4, 5, 7, 8); // six small items, all missing
        cache.acquire(task);
        assertThat(task.isGranted()).isTrue();
        assertThat(memory.made).isEmpty(); // room reserved for six maximal items, nothing made yet
        cache.checkInvariants(false);
        for (int p = 0; p < task.count(); p++) {
            load(task, p); // written one after another: each load reuses the large buffer the last one freed
        }
        assertThat(memory.made.stream().filter(b -> b.data.length == MAX).count()).isEqualTo(1);
        for (int p = 0; p < task.count(); p++) {
            check(task.item(p), cache.buffer(task.slot(p)));
        }
        cache.release(task);
    }

    @Test
    void aLoadThatFailsBeforeWriting_givesBackItsRoom() {
        cache = new SlotCache<>("L1", 20, 2 * MAX, MAX, memory, new LruPolicy());
        RecordingRequest first = new RecordingRequest(1, 2); // the whole budget reserved
        cache.acquire(first);
        cache.fail(first.slot(0), new IllegalStateException("unreadable"));
        cache.fail(first.slot(1), new IllegalStateException("unreadable"));
        cache.release(first);
        assertThat(memory.made).isEmpty();
        assertThat(use(4, 5)).isEqualTo(2); // the room came back: both load
    }

    @Test
    void smallItemsTakeTheirOwnSizeSoManyMoreFitThanTheMaximumAllows() {
        // A budget of 10 maximal items holds all 133 items of at most 300 bytes.
        cache = new SlotCache<>("L2", 200, 10 * MAX, MAX, memory, new LruPolicy());
        int loads = 0;
        for (int i = 0; i < 200; i++) {
            if (sizeOf(i) < MAX) {
                loads += use(i);
            }
        }
        for (int i = 0; i < 200; i++) {
            if (sizeOf(i) < MAX) {
                loads += use(i);
            }
        }
        assertThat(loads).isEqualTo(200 - 67); // each small item loaded once, found on the second pass
        assertThat(cache.stats().slots()).isEqualTo(133);
        assertThat(cache.stats().evictions()).isZero();
    }

    @Test
    void evictsLeastRecentlyUsedBytesWhenTheBudgetIsFull() {
        cache = new SlotCache<>("L2", 10, 2 * MAX, MAX, memory, new LruPolicy());
        use(0); // MAX bytes
        use(1); // small
        use(3); // MAX: 0, 1 and a loading buffer exceed 2 MAX, so the least recent, 0, goes
        assertThat(cache.contains(0)).isFalse();
        assertThat(cache.contains(1)).isTrue();
        assertThat(cache.contains(3)).isTrue();
        use(1); // 1 is now more recent than 3
        use(6); // MAX: 3 goes, 1 stays
        assertThat(cache.contains(3)).isFalse();
        assertThat(cache.contains(1)).isTrue();
        assertThat(cache.contains(6)).isTrue();
    }

    @Test
    void mixedSizesFromOneByteToTheMaximumStayExactUnderRandomUse() {
        cache = new SlotCache<>("L2", 60, 5 * MAX, MAX, memory, new LruPolicy());
        Random random = new Random(33);
        for (int step = 0; step < 3000; step++) {
            int a = random.nextInt(60);
            int b = random.nextInt(60);
            if (a == b) {
                use(a);
            } else {
                use(a, b);
            }
            cache.checkInvariants(true);
        }
        long made = memory.made.stream().mapToLong(x -> x.data.length).sum();
        assertThat(cache.stats().evictions()).isPositive();
        assertThat(made).as("bytes ever made; freed buffers are reused").isLessThan(200 * MAX);
    }

    @Test
    void aWaitingLoadIsGrantedWhenAPublishFreesItsLoadingBuffer() {
        cache = new SlotCache<>("L2", 6, 2 * MAX + 1000, MAX, memory, new LruPolicy());
        RecordingRequest first = new RecordingRequest(1, 2);
        cache.acquire(first);
        RecordingRequest second = new RecordingRequest(4);
        cache.acquire(second);
        assertThat(second.isGranted()).as("two loads in flight fill the budget").isFalse();
        load(first, 1); // item 2 is small: its loading buffer goes back, room for another load
        assertThat(second.isGranted()).isTrue();
        load(first, 0);
        load(second, 0);
        check(4, cache.buffer(second.slot(0)));
        cache.release(first);
        cache.release(second);
    }

    @Test
    void aFailedLoadHoldsNoBytes() {
        cache = new SlotCache<>("L2", 4, 2 * MAX, MAX, memory, new LruPolicy());
        RecordingRequest r = new RecordingRequest(0);
        cache.acquire(r);
        cache.fail(r.slot(0), new IllegalStateException("bad"));
        cache.release(r);
        use(1, 3);
    }

    @Test
    void aBudgetBelowTwoMaximalItemsIsRefused() {
        assertThatThrownBy(() -> new SlotCache<>("L2", 4, 2 * MAX - 1, MAX, memory, new LruPolicy()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two items");
    }

    @Test
    void sizeClassesFitEveryLengthWithLessThanAQuarterWasted() {
        SizeClasses classes = new SizeClasses(MAX);
        assertThat(classes.bytes(classes.largest())).isEqualTo(MAX);
        for (long n = 1; n <= MAX; n++) {
            long size = classes.bytes(classes.classOf(n));
            assertThat(size).isGreaterThanOrEqualTo(n);
            assertThat(size).isLessThanOrEqualTo(Math.max(SizeClasses.MIN_BYTES, (long) Math.ceil(n * 1.25)));
        }
        assertThat(new SizeClasses(1).count()).isEqualTo(1);
    }
}
