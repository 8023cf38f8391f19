package io.rocket.apps.forensics;

import io.rocket.files.FileItemApplication;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.Tile;
import io.rocket.core.RocketException;
import io.rocket.core.cuda.CuFft;
import io.rocket.core.cuda.CudaKernelContext;
import io.rocket.core.cuda.KernelModules;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * The forensics kernels on NVIDIA GPUs ({@code apps/src/main/cuda/forensics.cu}), the GPU twin of the cpu kernels
 * ({@link PrnuExtractor}, {@link PceComparator}, {@link NccComparator}), leaving the same item layouts in the slots.
 *
 * <p>Preprocess, six kernel launches and one or two FFTs, none waiting for the host: the noise residual (scaled
 * gradients and their divergence in one tiled pass, which also leaves per-strip column sums), the column means from
 * those sums, the zero-mean row pass (which applies the column means, subtracts the row means and leaves per-row
 * sums of squares), σ² = n/(n−1)·Σx², a cuFFT C2C forward transform of the residual (the full spectrum, as the cpu's
 * {@code realForwardFull}), the Wiener filter (|F|² computed per tile in shared memory, the local-power minimum
 * over the 3, 5, 7, 9 windows, zero padded), then either the Hermitian half spectrum (PCE item) or the C2C inverse
 * scaled by 1/n (NCC item). The plans and scratch are built in {@link #prepare}, while the first photos are read,
 * so that the first preprocess does not carry them.
 * Compare: PCE = conj(X)·Y over the half spectra, a cuFFT C2R inverse, then the energy outside the wrapped 11×11
 * box and the peak at lag (0, 0) by block reductions in double; NCC = two passes (means, then centred products),
 * sums in double. All reductions are two-stage and deterministic. A tile is one launch group per 64 items for NCC
 * (below) and batches of pairs through a batched cuFFT for PCE ({@link ForensicsPceTiles}).
 *
 * <p>Memory per GPU, allocated once and kept: for preprocess 16 bytes per pixel (the complex spectrum and the
 * filtered spectrum) and about 1/8 byte per pixel of column and row sums, for PCE compares 8 bytes per pixel (product
 * half spectrum and correlation surface) for each pair of a tile's batch ({@link ForensicsPceTiles#batch}: 8 pairs
 * of 1024², 1 of 3648×2736, bounded by {@link ForensicsPceTiles#WORKSPACE_BYTES} with the batched plans' work
 * areas), plus cuFFT's work areas (about 8 bytes per pixel per plan): about 0.5 GB at 3648×2736. Everything runs
 * on the kernel stream, so the overlapped compares of the runtime share the compare scratch safely (stream order). One instance per device ({@link ForensicsApp#kernels} is called once per device).
 */
final class ForensicsCudaKernels implements Kernels<Path> {
    /** The kernel module, {@code forensics.cu}. */
    static final String MODULE = "forensics";
    /** Threads of every forensics block ({@code FORENSICS_BLOCK}: the block sums' shared arrays). */
    static final int BLOCK = 256;
    /** Columns of a preprocess tile ({@code FORENSICS_TILE_W} in forensics.cu). */
    private static final int TILE_W = 32;
    /** Rows of a preprocess tile ({@code FORENSICS_TILE_H}: BLOCK / TILE_W). */
    private static final int TILE_H = BLOCK / TILE_W;
    /** Rows walked by one residual block ({@code FORENSICS_STRIP}): one pair of column partials per strip. */
    private static final int STRIP = 64;
    /** Most blocks of an element-wise or reducing kernel; grid-stride loops cover the rest. */
    static final int MAX_GRID = 2048;
    /** Most items and pairs of one NCC tile launch ({@code FORENSICS_TILE_ITEMS}, {@code _PAIRS} in forensics.cu). */
    static final int TILE_ITEMS = 64;
    static final int TILE_PAIRS = 1024;
    /** Pixels a block stages per step ({@code FORENSICS_CHUNK}). */
    private static final int TILE_CHUNK = 32;
    /** Blocks of an NCC tile launch per multiprocessor: 4 resident at 48 registers, 8.4 KB shared each. */
    private static final int TILE_BLOCKS_PER_SM = 4;

    private final ForensicsPipeline pipeline;
    private final int height;
    private final int width;
    private final long pixels;
    private final long halfLength;
    private final int tilesX;
    private final int strips;

    // Per-device state, made on the first call on the device's kernel thread.
    private int device = -1;
    private DeviceBuffer spectrum;  // n complex floats: the residual, then its spectrum
    private DeviceBuffer filtered;  // n complex floats: the Wiener-filtered spectrum (then its inverse for NCC)
    private DeviceBuffer columnPartial; // 2 * strips * w doubles: per-strip column sums, even and odd rows
    private DeviceBuffer columnMeans;   // 2 * w doubles
    private DeviceBuffer rowSquares;    // h doubles: per-row sums of squares of the zero-mean residual
    private DeviceBuffer stats;     // preprocess: sigma^2
    private DeviceBuffer means;     // NCC compare: the two means
    private DeviceBuffer partial;   // 3 * MAX_GRID doubles, per-block partial sums
    private DeviceBuffer product;   // h(w/2+1) complex floats per pair of a PCE batch (the per-pair path: the first)
    private DeviceBuffer surface;   // n floats per pair of a PCE batch
    private ForensicsPceTiles pceTiles;
    private CuFft.Plan complexPlan;
    private CuFft.Plan inversePlan;
    // NCC tiles: the launch group's item addresses, pairs and per-block partial sums; host-side tables reused.
    private DeviceBuffer tileAddresses;
    private DeviceBuffer tilePairs;
    private DeviceBuffer tilePartial;
    private int tileBlocks;
    private final DeviceBuffer[] groupItems = new DeviceBuffer[TILE_ITEMS];
    private final int[] groupPairs = new int[2 * TILE_PAIRS];
    private int[] localIndex = new int[0];

    /**
     * @throws RocketException when the forensics kernels were not built into this jar or cuFFT is not available
     */
    ForensicsCudaKernels(ForensicsPipeline pipeline) {
        KernelModules.require(MODULE);
        CuFft.unavailabilityCause().ifPresent(cause -> {
            throw new RocketException("forensics on cuda needs cuFFT: " + cause);
        });
        this.pipeline = pipeline;
        this.height = pipeline.height();
        this.width = pipeline.width();
        this.pixels = (long) height * width;
        this.halfLength = HalfSpectrum.halfLength(height, width);
        this.tilesX = (width + TILE_W - 1) / TILE_W;
        this.strips = (height + STRIP - 1) / STRIP;
    }

    private static int grid(long elements) {
        return CudaKernelContext.gridFor(elements, BLOCK, MAX_GRID);
    }

    /**
     * Builds the scratch memory and the cuFFT plans while the first photos are read: the first cuFFT plan of a
     * process loads the library's kernels (0.3–0.4 s on a freshly started H200), which the first preprocess carried
     * before (340 ms of it at 3648×2736, so the mean over 24 photos was 16.4 ms against 2.3 ms for each later one).
     */
    @Override
    public void prepare(KernelContext context) {
        ensureState(CudaKernelContext.of(context));
    }

    /** Allocates the scratch memory and makes the plans once per device. */
    private void ensureState(CudaKernelContext cuda) {
        if (device == cuda.deviceIndex()) {
            return;
        }
        if (device != -1) {
            throw new IllegalStateException("forensics cuda kernels made for device " + device
                    + " used on device " + cuda.deviceIndex());
        }
        spectrum = cuda.scratch(8 * pixels);
        filtered = cuda.scratch(8 * pixels);
        columnPartial = cuda.scratch(8L * 2 * strips * width);
        columnMeans = cuda.scratch(8L * 2 * width);
        rowSquares = cuda.scratch(8L * height);
        stats = cuda.scratch(8 * 8);
        means = cuda.scratch(8 * 8);
        partial = cuda.scratch(8L * 3 * MAX_GRID);
        complexPlan = cuda.fft2d(height, width, CuFft.Type.C2C);
        if (pipeline.metric() == Metric.PCE) {
            int batch = ForensicsPceTiles.batch(height, width);
            product = cuda.scratch(8 * halfLength * batch);
            surface = cuda.scratch(4 * pixels * batch);
            inversePlan = cuda.fft2d(height, width, CuFft.Type.C2R);
            pceTiles = new ForensicsPceTiles(cuda, height, width, product, surface, inversePlan, grid(pixels));
        } else {
            long chunks = (pixels + TILE_CHUNK - 1) / TILE_CHUNK;
            tileBlocks = (int) Math.max(1, Math.min(chunks, (long) TILE_BLOCKS_PER_SM * cuda.multiprocessors()));
            tileAddresses = cuda.scratch(8L * TILE_ITEMS);
            tilePairs = cuda.scratch(8L * TILE_PAIRS);
            tilePartial = cuda.scratch(8L * tileBlocks * (TILE_PAIRS + 2 * TILE_ITEMS));
        }
        device = cuda.deviceIndex();
    }

    @Override
    public long preprocess(Path key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
        String label = FileItemApplication.fileName(key);
        long gray = PrnuLayout.grayBytes(height, width);
        if (input.length() != gray) {
            throw new IllegalArgumentException(label + ": expected a GRAY item of " + width + "x" + height + " ("
                    + gray + " bytes) but the parsed item has " + input.length() + " bytes");
        }
        Metric metric = pipeline.metric();
        long need = PrnuLayout.itemBytes(metric, height, width);
        if (need > output.capacity()) {
            throw new BufferTooSmallException(label + ": " + metric + " item " + width + "x" + height, need,
                    output.capacity());
        }
        CudaKernelContext cuda = CudaKernelContext.of(context);
        ensureState(cuda);
        // Tiles of 32 columns x 8 rows (coalesced rows, shared-memory borders); the residual walks strips of 64 rows.
        cuda.kernel("forensics_residual").grid(tilesX * strips).block(BLOCK)
                .arg(input).arg(spectrum).arg(columnPartial).arg(height).arg(width).launch();
        cuda.kernel("forensics_column_means").grid(tilesX).block(BLOCK)
                .arg(columnPartial).arg(strips).arg(columnMeans).arg(height).arg(width).launch();
        cuda.kernel("forensics_zero_mean_rows").grid(height).block(BLOCK)
                .arg(spectrum).arg(columnMeans).arg(rowSquares).arg(height).arg(width).launch();
        cuda.kernel("forensics_noise_variance").grid(1).block(BLOCK)
                .arg(rowSquares).arg(height).arg(pixels).arg(stats).launch();
        complexPlan.forward(spectrum, spectrum);
        cuda.kernel("forensics_wiener").grid(tilesX * ((height + TILE_H - 1) / TILE_H)).block(BLOCK)
                .arg(spectrum).arg(filtered).arg(height).arg(width).arg(stats).launch();
        if (metric == Metric.PCE) {
            cuda.kernel("forensics_half_spectrum").grid(grid(halfLength)).block(BLOCK)
                    .arg(filtered).arg(output).arg(height).arg(width).launch();
        } else {
            complexPlan.inverse(filtered, filtered);
            cuda.kernel("forensics_pattern").grid(grid(pixels)).block(BLOCK)
                    .arg(filtered).arg(output).arg(height).arg(width).launch();
        }
        return need;
    }

    @Override
    public long compare(Path leftKey, DeviceBuffer left, Path rightKey, DeviceBuffer right, DeviceBuffer result,
                        KernelContext context) {
        CudaKernelContext cuda = CudaKernelContext.of(context);
        ensureState(cuda);
        int g = grid(pixels);
        if (pipeline.metric() == Metric.PCE) {
            cuda.kernel("forensics_cross_spectrum").grid(grid(halfLength)).block(BLOCK)
                    .arg(left).arg(right).arg(product).arg(halfLength).launch();
            inversePlan.inverse(product, surface);
            cuda.kernel("forensics_energy_partials").grid(g).block(BLOCK)
                    .arg(surface).arg(height).arg(width).arg(partial).launch();
            long box = (long) PceComparator.boxLength(height) * PceComparator.boxLength(width);
            cuda.kernel("forensics_pce").grid(1).block(BLOCK)
                    .arg(partial).arg(g).arg(surface).arg(pixels).arg(pixels - box).arg(result).launch();
        } else {
            cuda.kernel("forensics_ncc_means").grid(g).block(BLOCK)
                    .arg(left).arg(right).arg(pixels).arg(partial).launch();
            cuda.kernel("forensics_ncc_finish_means").grid(1).block(BLOCK)
                    .arg(partial).arg(g).arg(pixels).arg(means).launch();
            cuda.kernel("forensics_ncc_products").grid(g).block(BLOCK)
                    .arg(left).arg(right).arg(pixels).arg(means).arg(partial).launch();
            cuda.kernel("forensics_ncc").grid(1).block(BLOCK)
                    .arg(partial).arg(g).arg(result).launch();
        }
        return ForensicsPipeline.RESULT_BYTES;
    }

    /**
     * NCC: the tile's pairs in launch groups of at most {@link #TILE_ITEMS} items and {@link #TILE_PAIRS} pairs (a
     * leaf of 16 x 16 is one group), each two launches ({@code forensics_ncc_tile_partials}, then
     * {@code forensics_ncc_tile_finish} writing every pair's score into its result slot) and two small table copies,
     * all queued on the kernel stream. PCE: batches of pairs, see {@link ForensicsPceTiles}.
     */
    @Override
    public void compareTile(Tile<Path> tile, KernelContext context) {
        CudaKernelContext cuda = CudaKernelContext.of(context);
        ensureState(cuda);
        if (pipeline.metric() == Metric.PCE) {
            pceTiles.compare(tile, cuda);
            return;
        }
        if (localIndex.length < tile.items()) {
            localIndex = new int[tile.items()];
        }
        Arrays.fill(localIndex, 0, tile.items(), -1);
        int first = 0;
        int items = 0;
        for (int p = 0; p < tile.pairs(); p++) {
            int fresh = (localIndex[tile.left(p)] < 0 ? 1 : 0)
                    + (localIndex[tile.right(p)] < 0 && tile.right(p) != tile.left(p) ? 1 : 0);
            if (items + fresh > TILE_ITEMS || p - first == TILE_PAIRS) {
                launchGroup(cuda, tile, first, p, items);
                for (int q = first; q < p; q++) {
                    localIndex[tile.left(q)] = -1;
                    localIndex[tile.right(q)] = -1;
                }
                first = p;
                items = 0;
            }
            items = addToGroup(tile, tile.left(p), items);
            items = addToGroup(tile, tile.right(p), items);
            groupPairs[2 * (p - first)] = localIndex[tile.left(p)];
            groupPairs[2 * (p - first) + 1] = localIndex[tile.right(p)];
        }
        launchGroup(cuda, tile, first, tile.pairs(), items);
        for (int p = 0; p < tile.pairs(); p++) {
            tile.result(p).length(ForensicsPipeline.RESULT_BYTES);
        }
    }

    /** Tile item {@code item} in the open launch group, if not there yet; returns the group's item count. */
    private int addToGroup(Tile<Path> tile, int item, int items) {
        if (localIndex[item] >= 0) {
            return items;
        }
        localIndex[item] = items;
        groupItems[items] = tile.item(item);
        return items + 1;
    }

    /** Pairs {@code [first, end)} of the tile, whose items are {@code groupItems[0 .. items)}. */
    private void launchGroup(CudaKernelContext cuda, Tile<Path> tile, int first, int end, int items) {
        int pairs = end - first;
        if (pairs == 0) {
            return;
        }
        cuda.writeAddresses(tileAddresses, groupItems, items);
        cuda.writeInts(tilePairs, groupPairs, 2 * pairs);
        cuda.kernel("forensics_ncc_tile_partials").grid(tileBlocks).block(BLOCK)
                .arg(tileAddresses).arg(items).arg(tilePairs).arg(pairs).arg(pixels).arg(tilePartial).launch();
        cuda.kernel("forensics_ncc_tile_finish").grid(pairs).block(BLOCK)
                .arg(tilePartial).arg(tileBlocks).arg(tilePairs).arg(pairs).arg(items).arg(pixels)
                .arg(tile.result(first)).arg((int) (tile.resultStride() / Double.BYTES)).launch();
        Arrays.fill(groupItems, 0, items, null);
    }
}
