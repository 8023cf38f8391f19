package io.rocket.output;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * Positioned writes of numbers into a large file, combined in memory: results arrive a few at a time along each row
 * of a tile, so writing each number alone would cost a system call per pair. The file is cut into blocks of 4 KiB;
 * a fixed set of slots (direct-mapped by a hash of the block) gathers the numbers of the blocks being filled, with a
 * bit per element, and a slot that another block needs writes its runs of set elements with one positioned write
 * each. Only set elements are written, so no block is read back and elements written earlier are never overwritten
 * with stale bytes. Memory is fixed (slots × 4 KiB); nothing is allocated per number. Not thread-safe.
 */
final class BlockWriter {
    private static final int BLOCK_BYTES = 4096;
    private static final long HASH = 0x9E3779B97F4A7C15L;

    private final FileChannel channel;
    private final long base;
    private final NpyDtype dtype;
    private final int blockShift;
    private final int blockMask;
    private final int words;
    private final int slotShift;
    private final ByteBuffer data;
    private final ByteBuffer[] views;
    private final long[] blocks;
    private final long[] dirty;

    /**
     * Writes into {@code channel} from byte {@code base} on.
     *
     * @param channel the file
     * @param base    the byte offset of element 0
     * @param dtype   the type of the numbers
     * @param slots   the number of blocks held, a power of two
     */
    BlockWriter(FileChannel channel, long base, NpyDtype dtype, int slots) {
        if (Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two, got " + slots);
        }
        this.channel = channel;
        this.base = base;
        this.dtype = dtype;
        int perBlock = BLOCK_BYTES / dtype.bytes();
        this.blockShift = Integer.numberOfTrailingZeros(perBlock);
        this.blockMask = perBlock - 1;
        this.words = perBlock / 64;
        this.slotShift = 64 - Integer.numberOfTrailingZeros(slots);
        this.data = ByteBuffer.allocateDirect(slots * BLOCK_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        this.views = new ByteBuffer[slots];
        for (int s = 0; s < slots; s++) {
            views[s] = data.slice(s * BLOCK_BYTES, BLOCK_BYTES);
        }
        this.blocks = new long[slots];
        java.util.Arrays.fill(blocks, -1);
        this.dirty = new long[slots * words];
    }

    /**
     * Sets one element.
     *
     * @param element the element's index
     * @param value   its number
     * @throws IOException when a block that makes room cannot be written
     */
    void put(long element, double value) throws IOException {
        long block = element >>> blockShift;
        int within = (int) element & blockMask;
        int slot = slotShift == 64 ? 0 : (int) ((block * HASH) >>> slotShift);
        if (blocks[slot] != block) {
            write(slot);
            blocks[slot] = block;
        }
        dtype.put(data, slot * BLOCK_BYTES + within * dtype.bytes(), value);
        dirty[slot * words + (within >>> 6)] |= 1L << within;
    }

    /**
     * Writes every held element; the slots are empty afterwards.
     *
     * @throws IOException when the file cannot be written
     */
    void flush() throws IOException {
        for (int slot = 0; slot < blocks.length; slot++) {
            write(slot);
            blocks[slot] = -1;
        }
    }

    /** Writes the runs of set elements of {@code slot}'s block and clears them. */
    private void write(int slot) throws IOException {
        long block = blocks[slot];
        if (block < 0) {
            return;
        }
        int first = slot * words;
        int bits = words * 64;
        int start = next(first, 0, bits, true);
        while (start < bits) {
            int end = next(first, start, bits, false);
            ByteBuffer view = views[slot];
            view.limit(end * dtype.bytes()).position(start * dtype.bytes());
            long at = base + ((block << blockShift) + start) * dtype.bytes();
            while (view.hasRemaining()) {
                at += channel.write(view, at);
            }
            start = next(first, end, bits, true);
        }
        java.util.Arrays.fill(dirty, first, first + words, 0L);
    }

    /** The first bit at or after {@code from} that is set (or clear), else {@code bits}. */
    private int next(int first, int from, int bits, boolean set) {
        int bit = from;
        while (bit < bits) {
            long word = dirty[first + (bit >>> 6)];
            long candidates = (set ? word : ~word) & (-1L << (bit & 63));
            if (candidates != 0) {
                return (bit & ~63) + Long.numberOfTrailingZeros(candidates);
            }
            bit = (bit & ~63) + 64;
        }
        return bits;
    }
}
