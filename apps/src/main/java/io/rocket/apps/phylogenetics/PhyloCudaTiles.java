package io.rocket.apps.phylogenetics;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.Tile;
import io.rocket.core.cuda.CudaKernelContext;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * A tile of phylogenetics pairs on a GPU: launch groups of at most {@value #GROUP_PAIRS} pairs and
 * {@value #GROUP_BLOCKS} blocks, each two launches ({@code phylo_tile_dot}, {@code phylo_tile_distance} in
 * phylogenetics.cu) and two small tables queued in stream order: the pairs' vector addresses (left, right) and the
 * first block of each pair. A pair gets as many blocks as its own launch would ({@link PhyloCudaKernels#parts}), so
 * a tile of small proteomes is a few blocks a pair and a tile of large ones fills the GPU, and every pair's distance
 * is the per-pair path's to the bit. The tables and partial sums are made once per device; a tile allocates nothing.
 */
final class PhyloCudaTiles {
    /** Pairs of one launch group ({@code PHYLO_TILE_PAIRS} in the .cu file). */
    static final int GROUP_PAIRS = 1024;
    /** Blocks of one launch group: its partial sums are 256 KB. At least 4 per multiprocessor of the largest GPU. */
    static final int GROUP_BLOCKS = 32768;

    private final PhyloCudaKernels kernels;
    private final DeviceBuffer addressTable;
    private final DeviceBuffer firstTable;
    private final DeviceBuffer partial;
    private final DeviceBuffer[] addresses = new DeviceBuffer[2 * GROUP_PAIRS];
    private final int[] first = new int[GROUP_PAIRS + 1];

    /** The device tables of one GPU; {@code kernels} gives each pair's blocks. */
    PhyloCudaTiles(CudaKernelContext cuda, PhyloCudaKernels kernels) {
        if (kernels.maxParts() > GROUP_BLOCKS) {
            throw new IllegalStateException(kernels.maxParts() + " blocks a pair exceed a launch group's "
                    + GROUP_BLOCKS);
        }
        this.kernels = kernels;
        addressTable = cuda.scratch(8L * addresses.length);
        firstTable = cuda.scratch(4L * first.length);
        partial = cuda.scratch(8L * GROUP_BLOCKS);
    }

    /** Queues every pair of {@code tile} and sets each result slot's length. */
    void compare(Tile<Path> tile, CudaKernelContext cuda) {
        int start = 0;
        int blocks = 0;
        for (int p = 0; p < tile.pairs(); p++) {
            int parts = kernels.parts(tile.item(tile.left(p)));
            if (p - start == GROUP_PAIRS || blocks + parts > GROUP_BLOCKS) {
                launch(cuda, tile, start, p, blocks);
                start = p;
                blocks = 0;
            }
            int g = p - start;
            addresses[2 * g] = tile.item(tile.left(p));
            addresses[2 * g + 1] = tile.item(tile.right(p));
            first[g] = blocks;
            blocks += parts;
            tile.result(p).length(CvDistance.RESULT_BYTES);
        }
        launch(cuda, tile, start, tile.pairs(), blocks);
    }

    /** Pairs {@code [start, end)} of the tile, their tables filled from index 0, {@code blocks} blocks in all. */
    private void launch(CudaKernelContext cuda, Tile<Path> tile, int start, int end, int blocks) {
        int pairs = end - start;
        if (pairs == 0) {
            return;
        }
        first[pairs] = blocks;
        cuda.writeAddresses(addressTable, addresses, 2 * pairs);
        cuda.writeInts(firstTable, first, pairs + 1);
        cuda.kernel("phylo_tile_dot").grid(blocks).block(PhyloCudaKernels.BLOCK)
                .arg(addressTable).arg(firstTable).arg(pairs).arg(partial).launch();
        cuda.kernel("phylo_tile_distance").grid(pairs).block(PhyloCudaKernels.BLOCK)
                .arg(partial).arg(firstTable).arg(addressTable).arg(tile.result(start))
                .arg((int) (tile.resultStride() / Double.BYTES)).launch();
        Arrays.fill(addresses, 0, 2 * pairs, null);
    }
}
