package io.rocket.apps.forensics;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.Tile;
import io.rocket.core.cuda.CuFft;
import io.rocket.core.cuda.CudaKernelContext;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * A tile of PCE pairs on a GPU, a batch of pairs at a time: one cross-spectrum launch for the batch's pairs, one
 * batched cuFFT C2R for their correlation surfaces, one energy launch and one PCE launch (a block per pair) writing
 * every score into its result slot ({@code forensics_tile_*} in forensics.cu), and one table of the batch's item
 * addresses queued in stream order. Each pair's energy is summed in the blocks of the per-pair path, so a score equals
 * that path's given the same surface.
 *
 * <p>Memory is bounded by the workspace, sized once per device (at prepare) for {@link #batch} pairs: their product
 * half spectra and surfaces, about 8 bytes a pixel each pair, plus cuFFT's work areas. A batch is a power of two of
 * pairs, so the transforms run by one of log2(batch) + 1 plans (1, 2, 4, … pairs; the one-pair plan is the per-pair
 * path's): a tile of p pairs is p / batch full batches and one of each power of two in the rest, never a transform
 * of a pair that is not there. The work areas of those plans add up to about twice the largest one's.
 */
final class ForensicsPceTiles {
    /**
     * Device memory a workspace may take (product and surface buffers and the estimated cuFFT work areas): small
     * enough to fit the runtime's reserve beside preprocess's buffers on a 16 GB GPU (the cache leaves at least
     * 1 GiB), large enough for 8 pairs of 1024² photos a batch.
     */
    static final long WORKSPACE_BYTES = 256L << 20;
    /** Most pairs a batch: past this a batch of small photos gains little, and plans cost time to make. */
    static final int MAX_BATCH = 64;
    /** cuFFT's work area of a C2R transform, estimated at 8 bytes a pixel (the complex side). */
    private static final long FFT_WORK_BYTES_PER_PIXEL = 8;

    private final int height;
    private final int width;
    private final long pixels;
    private final long halfLength;
    private final long outside;
    private final int parts;
    private final DeviceBuffer product;
    private final DeviceBuffer surface;
    private final CuFft.Plan[] plans;
    private final DeviceBuffer addressTable;
    private final DeviceBuffer partial;
    private final DeviceBuffer[] addresses;

    /**
     * The plans and tables of one GPU. {@code product} and {@code surface} hold {@link #batch} pairs' half spectra
     * and surfaces; {@code single} is the one-pair C2R plan the per-pair path uses; {@code parts} is that path's
     * energy grid.
     */
    ForensicsPceTiles(CudaKernelContext cuda, int height, int width, DeviceBuffer product, DeviceBuffer surface,
                      CuFft.Plan single, int parts) {
        this.height = height;
        this.width = width;
        this.pixels = (long) height * width;
        this.halfLength = HalfSpectrum.halfLength(height, width);
        this.outside = pixels - (long) PceComparator.boxLength(height) * PceComparator.boxLength(width);
        this.parts = parts;
        this.product = product;
        this.surface = surface;
        int batch = batch(height, width);
        plans = new CuFft.Plan[Integer.numberOfTrailingZeros(batch) + 1];
        plans[0] = single;
        for (int j = 1; j < plans.length; j++) {
            plans[j] = cuda.fft2d(height, width, CuFft.Type.C2R, 1 << j);
        }
        addresses = new DeviceBuffer[2 * batch];
        addressTable = cuda.scratch(8L * addresses.length);
        partial = cuda.scratch(8L * batch * parts);
    }

    /**
     * Pairs a batch of {@code height × width} photos: the largest power of two whose product, surface and estimated
     * cuFFT work areas (twice the largest plan's) fit {@link #WORKSPACE_BYTES}, at least 1 and at most
     * {@link #MAX_BATCH}.
     */
    static int batch(int height, int width) {
        long pixels = (long) height * width;
        long perPair = 8 * HalfSpectrum.halfLength(height, width) + 4 * pixels
                + 2 * FFT_WORK_BYTES_PER_PIXEL * pixels;
        long fits = Math.max(1, Math.min(MAX_BATCH, WORKSPACE_BYTES / perPair));
        return Integer.highestOneBit((int) fits);
    }

    /** Queues every pair of {@code tile} and sets each result slot's length. */
    void compare(Tile<Path> tile, CudaKernelContext cuda) {
        int batch = addresses.length / 2;
        for (int start = 0; start < tile.pairs(); ) {
            int count = Math.min(batch, Integer.highestOneBit(tile.pairs() - start));
            for (int q = 0; q < count; q++) {
                addresses[2 * q] = tile.item(tile.left(start + q));
                addresses[2 * q + 1] = tile.item(tile.right(start + q));
                tile.result(start + q).length(ForensicsPipeline.RESULT_BYTES);
            }
            launch(cuda, tile, start, count);
            start += count;
        }
        Arrays.fill(addresses, null);
    }

    /** Pairs {@code [start, start + count)} of the tile, a power of two, their addresses in the table's order. */
    private void launch(CudaKernelContext cuda, Tile<Path> tile, int start, int count) {
        cuda.writeAddresses(addressTable, addresses, 2 * count);
        long elements = count * halfLength;
        int block = ForensicsCudaKernels.BLOCK;
        cuda.kernel("forensics_tile_cross_spectrum")
                .grid(CudaKernelContext.gridFor(elements, block, ForensicsCudaKernels.MAX_GRID)).block(block)
                .arg(addressTable).arg(halfLength).arg(elements).arg(product).launch();
        plans[Integer.numberOfTrailingZeros(count)].inverse(product, surface);
        cuda.kernel("forensics_tile_energy_partials").grid(count * parts).block(block)
                .arg(surface).arg(height).arg(width).arg(parts).arg(partial).launch();
        cuda.kernel("forensics_tile_pce").grid(count).block(block)
                .arg(partial).arg(parts).arg(surface).arg(pixels).arg(outside).arg(tile.result(start))
                .arg((int) (tile.resultStride() / Double.BYTES)).launch();
    }
}
