package io.rocket.apps.cuda;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.Kernels;
import io.rocket.core.Tile;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * Test helper: a tile of given items and pairs on a {@link GpuKernelRig}'s GPU, with one result buffer cut into
 * slots as the runtime cuts it, to run an application's {@code compareTile} directly and read every pair's result.
 */
final class RigTile implements Tile<Path> {
    private final List<DeviceBuffer> items;
    private final int[] pairs;
    private final long stride;
    private final DeviceBuffer results;
    private final DeviceBuffer[] slots;

    /** Pair p compares {@code items[pairs[2p]]} with {@code items[pairs[2p + 1]]}; slots are {@code stride} bytes. */
    RigTile(GpuKernelRig rig, List<DeviceBuffer> items, int[] pairs, long stride) {
        this.items = items;
        this.pairs = pairs;
        this.stride = stride;
        results = rig.device.allocate(stride * pairs());
        slots = new DeviceBuffer[pairs()];
        for (int p = 0; p < slots.length; p++) {
            slots[p] = rig.device.slice(results, p * stride, stride);
        }
    }

    /** Runs {@code compareTile} as one kernel step and returns each pair's first result double. */
    double[] compare(GpuKernelRig rig, Kernels<Path> kernels) throws Exception {
        rig.context.begin();
        kernels.compareTile(this, rig.context);
        rig.context.end();
        ByteBuffer all = rig.download(results, stride * pairs());
        double[] out = new double[pairs()];
        for (int p = 0; p < out.length; p++) {
            out[p] = all.getDouble((int) (p * stride));
        }
        return out;
    }

    /** Every ordered pair of {@code n} items, self pairs included: {@code n²} pairs. */
    static int[] allOrderedPairs(int n) {
        int[] pairs = new int[2 * n * n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                pairs[2 * (i * n + j)] = i;
                pairs[2 * (i * n + j) + 1] = j;
            }
        }
        return pairs;
    }

    @Override
    public int items() {
        return items.size();
    }

    @Override
    public Path key(int item) {
        return Path.of("item" + item);
    }

    @Override
    public DeviceBuffer item(int item) {
        return items.get(item);
    }

    @Override
    public int pairs() {
        return pairs.length / 2;
    }

    @Override
    public int left(int pair) {
        return pairs[2 * pair];
    }

    @Override
    public int right(int pair) {
        return pairs[2 * pair + 1];
    }

    @Override
    public DeviceBuffer result(int pair) {
        return slots[pair];
    }

    @Override
    public DeviceBuffer results() {
        return results;
    }

    @Override
    public long resultStride() {
        return stride;
    }

    @Override
    public void fail(int pair, Throwable cause) {
        throw new AssertionError("pair " + pair + " failed", cause);
    }
}
