package io.rocket.node;

import io.rocket.cache.CacheRequest;
import io.rocket.cache.Grant;
import io.rocket.cache.SlotCache;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.HostBuffer;
import io.rocket.core.device.CpuDevice;
import io.rocket.core.device.Device;
import io.rocket.core.device.DirectHostMemory;
import io.rocket.core.device.SimDevice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The L1 of a cpu or sim device as a byte budget: items of 1 byte to the declared maximum take the space their size
 * needs, are moved into a buffer of their own size on the device, and are evicted least recently used by bytes.
 */
class DeviceCacheBudgetTest {
    private static final int MAX = 4096;
    private static final int ITEMS = 64;

    private final DirectHostMemory host = new DirectHostMemory();
    private final HostBuffer staged = host.allocate(MAX);
    private final HostBuffer back = host.allocate(MAX);
    private Device device;
    private SlotCache<DeviceBuffer> l1;

    @AfterEach
    void close() {
        if (l1 != null) {
            l1.checkInvariants(true);
        }
        if (device != null) {
            device.close();
        }
        host.close();
    }

    /** A request that is settled at once or never waits (one thread, loads done by the test). */
    private static final class Request extends CacheRequest {
        boolean granted;

        Request(int a, int b) {
            super(2);
            items(a, b);
        }

        Request(int a) {
            super(1);
            items(a);
        }

        @Override
        protected void onGranted() {
            granted = true;
        }

        @Override
        protected void onSettled() {
        }
    }

    /** Sizes from 1 byte to the maximum; every fourth item is maximal. */
    private static int sizeOf(int item) {
        return item % 4 == 0 ? MAX : 1 + (item * 7919) % 600;
    }

    private static byte byteOf(int item, int k) {
        return (byte) (item * 31 + k * 7);
    }

    /** Copies the item to the device as the pipeline does from L2, then publishes it. */
    private void load(int item, int slot) {
        int n = sizeOf(item);
        for (int k = 0; k < n; k++) {
            staged.raw().put(k, byteOf(item, k));
        }
        staged.length(n);
        DeviceBuffer out = l1.buffer(slot);
        assertThat(out.capacity()).as("a load is written into a buffer of the largest size").isEqualTo(MAX);
        device.copyToDevice(staged, out, n);
        l1.publish(slot);
    }

    /** Acquires, loads what is missing, checks the items (bytes on cpu, length on sim) and releases. */
    private int use(Request r) {
        l1.acquire(r);
        assertThat(r.granted).isTrue();
        int loads = 0;
        for (int p = 0; p < r.count(); p++) {
            if (r.grant(p) == Grant.LOAD) {
                load(r.item(p), r.slot(p));
                loads++;
            }
        }
        for (int p = 0; p < r.count(); p++) {
            int item = r.item(p);
            DeviceBuffer b = l1.buffer(r.slot(p));
            assertThat(b.length()).as("length of item %d", item).isEqualTo(sizeOf(item));
            assertThat(b.capacity()).as("item %d's buffer fits it", item)
                    .isLessThanOrEqualTo(Math.max(256, (long) Math.ceil(sizeOf(item) * 1.25)));
            if (device instanceof CpuDevice) {
                device.copyToHost(b, back, b.length());
                for (int k = 0; k < b.length(); k++) {
                    assertThat(back.raw().get(k)).as("item %d byte %d", item, k).isEqualTo(byteOf(item, k));
                }
            }
        }
        l1.release(r);
        return loads;
    }

    @Test
    void cpuL1HoldsItemsByTheirActualSizeNotByMaximalSlots() {
        device = new CpuDevice(0);
        l1 = DeviceLane.deviceCache(device, ITEMS, 6, MAX);
        assertThat(l1.maximalItems()).isEqualTo(6);
        int loads = 0;
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < ITEMS; i++) {
                if (sizeOf(i) < MAX) {
                    loads += use(new Request(i));
                }
            }
        }
        // 48 items of at most 600 bytes fit in 6 maximal items' bytes: each is loaded once.
        assertThat(loads).isEqualTo(48);
        assertThat(l1.stats().slots()).as("items held at once").isEqualTo(48);
        assertThat(l1.stats().evictions()).isZero();
    }

    @Test
    void cpuL1EvictsByBytesAndKeepsEveryItemExactUnderRandomUse() {
        device = new CpuDevice(0);
        l1 = DeviceLane.deviceCache(device, ITEMS, 4, MAX);
        Random random = new Random(5);
        for (int step = 0; step < 2000; step++) {
            int a = random.nextInt(ITEMS);
            int b = random.nextInt(ITEMS);
            use(a == b ? new Request(a) : new Request(a, b));
        }
        assertThat(l1.stats().evictions()).isPositive();
        assertThat(l1.stats().slots()).as("more items held at once than 4 maximal slots").isGreaterThan(4);
    }

    @Test
    void simL1IsABudgetToo() {
        device = new SimDevice(0, 0);
        l1 = DeviceLane.deviceCache(device, ITEMS, 3, MAX);
        Random random = new Random(9);
        for (int step = 0; step < 500; step++) {
            int a = random.nextInt(ITEMS / 2);
            use(new Request(a, ITEMS - 1 - random.nextInt(ITEMS / 2)));
        }
        assertThat(l1.slots()).as("one slot per item: the bytes decide").isEqualTo(ITEMS);
        assertThat(l1.maximalItems()).isEqualTo(3);
        assertThat(l1.stats().slots()).isGreaterThan(3);
    }
}
