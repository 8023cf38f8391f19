package org.example.jaccard;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.Tile;
import io.rocket.core.cuda.CudaKernelContext;
import io.rocket.core.cuda.KernelModules;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * The Jaccard kernels on a GPU ({@code src/main/cuda/jaccard.cu}). A tile of pairs is one launch, a block per pair,
 * reading the tile's sets through a table of their addresses; launches allocate nothing once the tables have grown to
 * the largest tile. One instance per GPU (the application makes kernels per device).
 */
final class JaccardCudaKernels implements Kernels<Path> {
    private static final int BLOCK = 256; // jaccard_compare sums in a shared array of this size

    /** The tile's items (addresses), their lengths and its pairs, on the device; grown to the largest tile. */
    private DeviceBuffer itemTable;
    private DeviceBuffer countTable;
    private DeviceBuffer pairTable;
    private DeviceBuffer[] items = new DeviceBuffer[0];
    private int[] counts = new int[0];
    private int[] pairs = new int[0];

    JaccardCudaKernels() {
        KernelModules.require("jaccard"); // a one-line error before the run when built without -Pcuda
    }

    @Override
    public long preprocess(Path key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
        long count = input.length() / Long.BYTES;
        CudaKernelContext.of(context).kernel("jaccard_copy").grid(CudaKernelContext.gridFor(count, BLOCK, 1024))
                .block(BLOCK).arg(input).arg(output).arg(count).launch();
        return input.length();
    }

    @Override
    public long compare(Path a, DeviceBuffer left, Path b, DeviceBuffer right, DeviceBuffer result,
                        KernelContext context) {
        CudaKernelContext.of(context).kernel("jaccard_compare").grid(1).block(BLOCK)
                .arg(left).arg(left.length() / Long.BYTES).arg(right).arg(right.length() / Long.BYTES).arg(result)
                .launch();
        return Double.BYTES;
    }

    @Override
    public void compareTile(Tile<Path> tile, KernelContext context) {
        CudaKernelContext cuda = CudaKernelContext.of(context);
        grow(cuda, tile.items(), tile.pairs());
        for (int t = 0; t < tile.items(); t++) {
            items[t] = tile.item(t);
            counts[t] = (int) (items[t].length() / Long.BYTES);
        }
        for (int p = 0; p < tile.pairs(); p++) {
            pairs[2 * p] = tile.left(p);
            pairs[2 * p + 1] = tile.right(p);
            tile.result(p).length(Double.BYTES);
        }
        cuda.writeAddresses(itemTable, items, tile.items());
        cuda.writeInts(countTable, counts, tile.items());
        cuda.writeInts(pairTable, pairs, 2 * tile.pairs());
        cuda.kernel("jaccard_tile").grid(tile.pairs()).block(BLOCK)
                .arg(itemTable).arg(countTable).arg(pairTable).arg(tile.results())
                .arg((int) (tile.resultStride() / Double.BYTES)).launch();
        Arrays.fill(items, 0, tile.items(), null);
    }

    /** The tables, at least this large: device memory made once per size, doubled when a tile outgrows it. */
    private void grow(CudaKernelContext cuda, int itemCount, int pairCount) {
        if (items.length < itemCount) {
            int size = Math.max(itemCount, 2 * items.length);
            items = new DeviceBuffer[size];
            counts = new int[size];
            itemTable = cuda.scratch((long) Long.BYTES * size);
            countTable = cuda.scratch((long) Integer.BYTES * size);
        }
        if (pairs.length < 2 * pairCount) {
            int size = Math.max(2 * pairCount, 2 * pairs.length);
            pairs = new int[size];
            pairTable = cuda.scratch((long) Integer.BYTES * size);
        }
    }
}
