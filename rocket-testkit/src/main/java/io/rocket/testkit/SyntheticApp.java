package io.rocket.testkit;

import io.rocket.core.Application;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.Tile;
import io.rocket.core.device.SimClock;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The runtime-test application: items of a configurable size whose first 8 bytes are
 * {@code v(i) = splitmix64(seed + i)} (little-endian) and the rest a deterministic fill; compare reads both cached
 * items and yields {@code v(i) XOR v(j)}, so a wrong slot gives a wrong result. Load, preprocess and compare take
 * modelled time from {@link Cost}s: load sleeps on the CPU pool (like waiting for storage), kernels occupy the
 * device. Keys are the item indices.
 */
public final class SyntheticApp implements Application<Integer, Long> {
    private static final long LOAD_SALT = 0x4C4F4144L;
    private static final long PREPROCESS_SALT = 0x50524550L;
    private static final long COMPARE_SALT = 0x434D5052L;

    /**
     * @param items      number of items
     * @param itemBytes  bytes per item (at least 8)
     * @param load       cost of loading (reading and parsing) one item
     * @param preprocess cost of preprocessing one item on the device
     * @param compare    cost of comparing one pair on the device
     * @param seed       seed of item values and cost draws
     */
    public record Config(int items, int itemBytes, Cost load, Cost preprocess, Cost compare, long seed) {
    }

    private static final long SIZE_SALT = 0x53495A45L;

    private final Config config;
    /** Whether items take sizes from 8 bytes to {@link Config#itemBytes()} instead of all that size. */
    private final boolean variableSizes;
    /** Whether the cpu kernels compare a tile at once ({@link TileCpuKernels}) instead of the per-pair default. */
    private final boolean tileKernel;
    private final ThreadLocal<SimClock> loadClock = ThreadLocal.withInitial(SimClock::new);

    public SyntheticApp(Config config) {
        this(config, false);
    }

    /**
     * An app whose items, with {@code variableSizes}, each have a size of their own from 8 bytes to
     * {@link Config#itemBytes()} (the declared maximum), drawn from the seed, with v(i) also in their last 8 bytes:
     * the cpu compare checks both ends and the length, so a cache that keeps the wrong bytes of an item, or too
     * few, fails the pair.
     */
    public SyntheticApp(Config config, boolean variableSizes) {
        this(config, variableSizes, false);
    }

    /**
     * An app whose cpu kernels, with {@code tileKernel}, implement {@link Kernels#compareTile} themselves: each tile
     * item's value is read once and every pair's result written from those values, the way a blocked kernel works,
     * so runs can check that the tile path gives the per-pair path's results.
     */
    public SyntheticApp(Config config, boolean variableSizes, boolean tileKernel) {
        if (config.itemBytes() < 8) {
            throw new IllegalArgumentException("item bytes must be at least 8");
        }
        this.config = config;
        this.variableSizes = variableSizes;
        this.tileKernel = tileKernel;
    }

    /** The actual size of item {@code item}: the declared maximum, or with variable sizes 8 to that maximum. */
    public int itemBytes(int item) {
        if (!variableSizes) {
            return config.itemBytes();
        }
        // 8, or 16 and more: from 9 to 15 bytes the value's two copies would overlap and spoil each other.
        long span = config.itemBytes() - 7;
        int size = 8 + (int) Long.remainderUnsigned(SplitMix64.mix(config.seed() ^ SIZE_SALT) + item, span);
        return size < 16 ? 8 : size;
    }

    /** The keys 0..items-1. */
    public List<Integer> keys() {
        return IntStream.range(0, config.items()).boxed().toList();
    }

    /** The value v(i) of item i. */
    public static long value(long seed, int item) {
        return SplitMix64.mix(seed + item);
    }

    /** The expected result of pair (i, j). */
    public static long expected(long seed, int i, int j) {
        return value(seed, i) ^ value(seed, j);
    }

    /** A result as 16 lowercase hex digits. */
    public static String hex(long result) {
        String h = Long.toHexString(result);
        return "0".repeat(16 - h.length()) + h;
    }

    @Override
    public String name() {
        return "synthetic";
    }

    @Override
    public List<Path> inputFiles(Integer key) {
        return List.of();
    }

    @Override
    public long maxFileBytes() {
        return 0;
    }

    @Override
    public long maxInputBytes() {
        return config.itemBytes();
    }

    @Override
    public long maxItemBytes() {
        return config.itemBytes();
    }

    @Override
    public long maxResultBytes() {
        return Long.BYTES;
    }

    @Override
    public long parse(Integer key, InputFiles files, HostBuffer output) {
        int item = key;
        loadClock.get().occupy(config.load().nanos(SplitMix64.mix(config.seed() ^ LOAD_SALT) + item));
        int bytes = itemBytes(item);
        long v = value(config.seed(), item);
        fill(v, output.byteBuffer(), bytes);
        if (variableSizes) {
            output.byteBuffer().putLong(bytes - 8, v);
        }
        return bytes;
    }

    /** Writes v then a fill derived from v: 8 bytes at a time, the tail byte by byte. */
    static void fill(long v, ByteBuffer out, int bytes) {
        out.putLong(0, v);
        long x = v;
        int k = 8;
        for (; k + 8 <= bytes; k += 8) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            out.putLong(k, x);
        }
        for (; k < bytes; k++) {
            out.put(k, (byte) (x >>> (8 * (k & 7))));
        }
    }

    @Override
    public Kernels<Integer> kernels(DeviceKind kind) {
        return switch (kind) {
            case CPU -> tileKernel ? new TileCpuKernels() : new CpuKernels();
            case SIM -> new SimKernels();
            case CUDA -> new SyntheticCudaKernels(this::preprocessNanos, this::compareNanos);
        };
    }

    @Override
    public io.rocket.core.ResultCodec<Long> resultCodec() {
        return io.rocket.core.ResultCodec.LONG;
    }

    @Override
    public Long postprocess(Integer left, Integer right, HostBuffer result) {
        return result.byteBuffer().getLong(0);
    }

    private long preprocessNanos(int item) {
        return config.preprocess().nanos(SplitMix64.mix(config.seed() ^ PREPROCESS_SALT) + item);
    }

    private long compareNanos(int i, int j) {
        return config.compare().nanos(SplitMix64.mix(SplitMix64.mix(config.seed() ^ COMPARE_SALT) + i) + j);
    }

    /** Real kernels on the cpu device: the item is copied into its slot, compare XORs the two values. */
    private final class CpuKernels implements Kernels<Integer> {
        @Override
        public long preprocess(Integer key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
            output.byteBuffer().put(0, input.byteBuffer(), 0, (int) input.length());
            context.occupy(preprocessNanos(key));
            return input.length();
        }

        @Override
        public long compare(Integer leftKey, DeviceBuffer left, Integer rightKey, DeviceBuffer right,
                            DeviceBuffer result, KernelContext context) {
            if (variableSizes) {
                checkItem(leftKey, left);
                checkItem(rightKey, right);
            }
            result.byteBuffer().putLong(0, left.byteBuffer().getLong(0) ^ right.byteBuffer().getLong(0));
            context.occupy(compareNanos(leftKey, rightKey));
            return Long.BYTES;
        }
    }

    /** The cpu kernels with a compareTile of their own: each item read once per tile, then every pair. */
    private final class TileCpuKernels implements Kernels<Integer> {
        private final CpuKernels single = new CpuKernels();
        private long[] values = new long[0];

        @Override
        public long preprocess(Integer key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
            return single.preprocess(key, input, output, context);
        }

        @Override
        public long compare(Integer leftKey, DeviceBuffer left, Integer rightKey, DeviceBuffer right,
                            DeviceBuffer result, KernelContext context) {
            return single.compare(leftKey, left, rightKey, right, result, context);
        }

        @Override
        public void compareTile(Tile<Integer> tile, KernelContext context) {
            if (values.length < tile.items()) {
                values = new long[tile.items()];
            }
            for (int t = 0; t < tile.items(); t++) {
                if (variableSizes) {
                    checkItem(tile.key(t), tile.item(t));
                }
                values[t] = tile.item(t).byteBuffer().getLong(0);
            }
            long nanos = 0;
            for (int p = 0; p < tile.pairs(); p++) {
                int a = tile.left(p);
                int b = tile.right(p);
                tile.results().byteBuffer().putLong((int) (p * tile.resultStride()), values[a] ^ values[b]);
                tile.result(p).length(Long.BYTES);
                nanos += compareNanos(tile.key(a), tile.key(b));
            }
            context.occupy(nanos);
        }
    }

    /** Throws unless the cached item has its own length and v(i) at both ends. */
    private void checkItem(int key, DeviceBuffer item) {
        ByteBuffer b = item.byteBuffer();
        long v = value(config.seed(), key);
        if (item.length() != itemBytes(key) || b.getLong(0) != v || b.getLong((int) item.length() - 8) != v) {
            throw new IllegalStateException("item " + key + ": cached as " + item.length() + " bytes, expected "
                    + itemBytes(key) + " with its value at both ends");
        }
    }

    /** Kernels on the sim device: modelled time only. */
    private final class SimKernels implements Kernels<Integer> {
        @Override
        public long preprocess(Integer key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
            context.occupy(preprocessNanos(key));
            return input.length();
        }

        @Override
        public long compare(Integer leftKey, DeviceBuffer left, Integer rightKey, DeviceBuffer right,
                            DeviceBuffer result, KernelContext context) {
            context.occupy(compareNanos(leftKey, rightKey));
            return Long.BYTES;
        }
    }
}
