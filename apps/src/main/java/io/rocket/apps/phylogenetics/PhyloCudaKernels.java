package io.rocket.apps.phylogenetics;

import io.rocket.files.FileItemApplication;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.RocketException;
import io.rocket.core.Tile;
import io.rocket.core.cuda.CudaKernelContext;
import io.rocket.core.cuda.KernelModules;

import java.nio.file.Path;

/**
 * The phylogenetics kernels on NVIDIA GPUs ({@code apps/src/main/cuda/phylogenetics.cu}), the GPU twin of
 * {@link CompositionVectorBuilder} and {@link CvDistance}: the same sparse vector layout in the slot
 * ({@link CompositionVector}: ascending keys, then unit-length float values) and the same distance.
 *
 * <p>Preprocess counts the K-, (K−1)- and (K−2)-strings of the parsed proteome with atomic increments, then visits
 * every candidate K-string in key order in chunks (an entry where its (K−1)-prefix and suffix occur), scans the
 * chunks' entry counts into output offsets and writes keys and values; see the .cu file. The (K−1)- and (K−2)-string
 * counts are dense tables (20^(K−1) and 20^(K−2) ints). The K-string counts are a dense table of 20^K ints up to
 * K = 6 (256 MB at K = 6); at K = 7 a dense table would take 5.1 GB, so they go to an open-addressing hash table of
 * twice the largest proteome's positions (rounded up to a power of two, 8 bytes per slot: about 32 MB for 1.3 M
 * residues), and the (K−1)-table takes 256 MB. Host work per item: one small read-back (the entry count and error
 * flags), so preprocess can return the item's size and fail like the cpu kernel (bad input, no K-string, every entry
 * zero, slot too small). Values are a(s) evaluated in double in the cpu's order, a rounding residue of an exact zero
 * set to 0 by the same integer check; only the norm's summation order differs, so values match the cpu's within a
 * float rounding (tests allow 1e-5).
 *
 * <p>Compare: each thread takes entries of the left vector and binary-searches the right one's keys; products are
 * summed in double in a deterministic two-stage block reduction over {@link #parts} blocks (by the left vector's
 * entries); D = (1 − C)/2 (NaN for vectors of different K, which one run never makes). A tile is one launch group per
 * 1,024 pairs ({@link PhyloCudaTiles}) that sums each pair in the same blocks, so a pair's distance has the same bits
 * on either path. One instance per device; scratch memory is allocated on the first call and kept.
 */
final class PhyloCudaKernels implements Kernels<Path> {
    /** The kernel module, {@code phylogenetics.cu}. */
    static final String MODULE = "phylogenetics";
    /** Largest K whose K-string counts are a dense table; above it they go to a hash table. */
    static final int MAX_DENSE_K = 6;
    /** Threads of every phylogenetics block ({@code PHYLO_BLOCK}: the block sums' shared arrays). */
    static final int BLOCK = 256;
    /** Candidates per thread in a chunk (PHYLO_PER in the .cu file). */
    private static final int PER = 64;
    private static final long CHUNK = (long) BLOCK * PER;
    private static final int MAX_GRID = 4096;
    /**
     * Left entries (binary searches) a compare thread takes at least: a vector of a million entries still gets the
     * old fixed grid of 4 blocks per multiprocessor (the searches wait on memory, so a lone pair needs every thread it
     * can get), while a small vector's pair takes a few blocks and leaves the rest of a tile's grid to other pairs.
     */
    private static final int ENTRIES_PER_THREAD = 4;
    private static final int EMPTY = -1; // 0xFFFFFFFF, never a key (20^7 < 2^31)

    private final PhylogeneticsApp app;
    private final SlotSizes sizes;
    private final int k;
    private final long candidates;
    private final int modK1;
    private final int modK2;
    private final int chunks;
    private final boolean dense;
    private final long hashCapacity;
    private final double[] results = new double[4];

    // Per-device state, made on the first call on the device's kernel thread.
    private int device = -1;
    private int compareGrid;
    private DeviceBuffer countK;      // dense: 20^K counts
    private DeviceBuffer hashKeys;    // hash: capacity keys
    private DeviceBuffer hashCounts;  // hash: capacity counts
    private DeviceBuffer countK1;
    private DeviceBuffer countK2;
    private DeviceBuffer totals;      // 4 unsigned long long
    private DeviceBuffer chunkCount;  // chunks unsigned int, then their offsets
    private DeviceBuffer chunkSquares; // chunks doubles
    private DeviceBuffer resultValues; // 4 doubles read back per item
    private DeviceBuffer inverseNorm; // 1 double
    private DeviceBuffer partial;     // compare: MAX_GRID doubles
    private PhyloCudaTiles tiles;

    /**
     * @throws RocketException when the phylogenetics kernels were not built into this jar
     */
    PhyloCudaKernels(PhylogeneticsApp app) {
        KernelModules.require(MODULE);
        this.app = app;
        this.sizes = app.sizes();
        this.k = sizes.k();
        this.candidates = Alphabet.power(k);
        this.modK1 = (int) Alphabet.power(k - 1);
        this.modK2 = (int) Alphabet.power(k - 2);
        this.chunks = (int) ((candidates + CHUNK - 1) / CHUNK);
        this.dense = k <= MAX_DENSE_K;
        long positions = Math.max(1, sizes.inputBytes() - FastaParser.HEADER_BYTES);
        this.hashCapacity = dense ? 0 : Math.max(1024, Long.highestOneBit(2 * positions - 1) << 1);
    }

    private static int grid(long elements) {
        return CudaKernelContext.gridFor(elements, BLOCK, MAX_GRID);
    }

    private void ensureState(CudaKernelContext cuda) {
        if (device == cuda.deviceIndex()) {
            return;
        }
        if (device != -1) {
            throw new IllegalStateException("phylogenetics cuda kernels made for device " + device
                    + " used on device " + cuda.deviceIndex());
        }
        if (dense) {
            countK = cuda.scratch(4 * candidates);
        } else {
            hashKeys = cuda.scratch(4 * hashCapacity);
            hashCounts = cuda.scratch(4 * hashCapacity);
        }
        countK1 = cuda.scratch(4L * modK1);
        countK2 = cuda.scratch(4L * modK2);
        totals = cuda.scratch(8 * 4);
        chunkCount = cuda.scratch(4L * chunks);
        chunkSquares = cuda.scratch(8L * chunks);
        resultValues = cuda.scratch(8 * 4);
        inverseNorm = cuda.scratch(8);
        partial = cuda.scratch(8L * MAX_GRID);
        compareGrid = Math.max(1, Math.min(MAX_GRID, 4 * cuda.multiprocessors()));
        tiles = new PhyloCudaTiles(cuda, this);
        device = cuda.deviceIndex();
    }

    private void fill(CudaKernelContext cuda, DeviceBuffer buffer, long count, int value) {
        cuda.kernel("phylo_fill").grid(grid(count)).block(BLOCK).arg(buffer).arg(count).arg(value).launch();
    }

    @Override
    public long preprocess(Path key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
        String name = FileItemApplication.fileName(key);
        long length = input.length() - FastaParser.HEADER_BYTES;
        if (length < 0) {
            throw new IllegalArgumentException(name + ": not a parsed proteome (" + input.length() + " bytes)");
        }
        if (!dense && 2 * length > hashCapacity) {
            throw new IllegalStateException(name + ": " + length + " residue positions exceed the K-string table"
                    + " sized for " + hashCapacity / 2);
        }
        long available = Math.min(output.capacity(), sizes.itemBytes());
        long maxEntries = (available - CompositionVector.HEADER_BYTES) / 8;
        CudaKernelContext cuda = CudaKernelContext.of(context);
        ensureState(cuda);
        // The buffers a mode does not use are passed in their place; the kernels never touch them.
        DeviceBuffer tableK = dense ? countK : hashKeys;
        DeviceBuffer keys = dense ? countK : hashKeys;
        DeviceBuffer counts = dense ? countK : hashCounts;
        long mask = dense ? 0 : hashCapacity - 1;
        if (dense) {
            fill(cuda, countK, candidates, 0);
        } else {
            fill(cuda, hashKeys, hashCapacity, EMPTY);
            fill(cuda, hashCounts, hashCapacity, 0);
        }
        fill(cuda, countK1, modK1, 0);
        fill(cuda, countK2, modK2, 0);
        cuda.kernel("phylo_clear_totals").grid(1).block(32).arg(totals).launch();
        cuda.kernel("phylo_count").grid(grid(length)).block(BLOCK)
                .arg(input).arg(length).arg(k).arg(tableK).arg(keys).arg(counts).arg(mask)
                .arg(countK1).arg(countK2).arg(modK1).arg(modK2).arg(totals).launch();
        cuda.kernel("phylo_chunk_counts").grid(chunks).block(BLOCK)
                .arg(tableK).arg(keys).arg(counts).arg(mask).arg(countK1).arg(countK2).arg(modK1).arg(modK2)
                .arg(totals).arg(candidates).arg(chunkCount).arg(chunkSquares).launch();
        cuda.kernel("phylo_scan").grid(1).block(BLOCK)
                .arg(chunkCount).arg(chunkSquares).arg(chunks).arg(totals).arg(resultValues).arg(inverseNorm)
                .launch();
        cuda.kernel("phylo_write").grid(chunks).block(BLOCK)
                .arg(tableK).arg(keys).arg(counts).arg(mask).arg(countK1).arg(countK2).arg(modK1).arg(modK2)
                .arg(totals).arg(candidates).arg(chunkCount).arg(resultValues).arg(inverseNorm).arg(maxEntries)
                .arg(k).arg(output).launch();
        cuda.readDoubles(resultValues, results, 4);
        long entries = (long) results[0];
        long invalid = (long) results[1];
        if (invalid != 0) {
            throw new IllegalArgumentException(name + ": not a parsed proteome (" + invalid
                    + " bytes of the residue stream are neither residue codes nor separators)");
        }
        if (results[2] == 0.0) {
            throw new FastaFormatException(name, "no protein is at least K = " + k + " residues long");
        }
        if (results[3] == 0.0) {
            throw CompositionVectorBuilder.allEntriesZero(name, k);
        }
        long needed = CompositionVector.bytesFor(entries);
        if (entries > maxEntries) {
            throw app.vectorTooLarge(name, new BufferTooSmallException(name + ": composition vector (K = " + k
                    + ", " + entries + " entries)", needed, available, true));
        }
        return needed;
    }

    @Override
    public long compare(Path leftKey, DeviceBuffer left, Path rightKey, DeviceBuffer right, DeviceBuffer result,
                        KernelContext context) {
        CudaKernelContext cuda = CudaKernelContext.of(context);
        ensureState(cuda);
        int parts = parts(left);
        cuda.kernel("phylo_dot").grid(parts).block(BLOCK).arg(left).arg(right).arg(partial).launch();
        cuda.kernel("phylo_distance").grid(1).block(BLOCK)
                .arg(partial).arg(parts).arg(left).arg(right).arg(result).launch();
        return CvDistance.RESULT_BYTES;
    }

    /** A tile's pairs in launch groups of {@link PhyloCudaTiles}, every distance into its result slot. */
    @Override
    public void compareTile(Tile<Path> tile, KernelContext context) {
        CudaKernelContext cuda = CudaKernelContext.of(context);
        ensureState(cuda);
        tiles.compare(tile, cuda);
    }

    /**
     * Blocks that sum one pair whose left vector is {@code left}: a block per {@value #ENTRIES_PER_THREAD} entries a
     * thread, at most 4 per multiprocessor (one wave of a large vector's pair fills the GPU). The per-pair and the
     * tile path both use this, so they sum a pair in the same blocks.
     */
    int parts(DeviceBuffer left) {
        long entries = Math.max(0, (left.length() - CompositionVector.HEADER_BYTES) / 8);
        long perBlock = (long) BLOCK * ENTRIES_PER_THREAD;
        return (int) Math.max(1, Math.min(compareGrid, (entries + perBlock - 1) / perBlock));
    }

    /** Most blocks {@link #parts} gives a pair on this device. */
    int maxParts() {
        return compareGrid;
    }
}
