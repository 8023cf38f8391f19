package io.rocket.output;

import io.rocket.core.ResultSink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.ToDoubleFunction;

/**
 * Writes numeric results into a dense NumPy {@code .npy} array as they arrive, in any order: each pair's number goes
 * to the elements its {@link MatrixLayout} gives, by positioned writes combined per block ({@link BlockWriter}), so
 * the matrix never sits in memory — only a fixed 16 MiB of blocks being filled. The file is created at its full size
 * and filled with NaN first, so a pair that failed, or that the run never reached, reads as NaN;
 * {@code np.load(path, mmap_mode='r')} opens it. A resumed run starts the file anew and the journal's results are
 * replayed into it (positioned writes need no cutting back). Thread-safe.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class DenseNpySink<K, R> implements ResultSink<K, R> {
    /** Blocks of 4 KiB held while they fill: 16 MiB, the rows of a band of up to 4,096 items at once. */
    static final int DEFAULT_SLOTS = 4096;
    private static final int FILL_BYTES = 1 << 20;

    private final Path path;
    private final MatrixLayout layout;
    private final ToDoubleFunction<? super R> score;
    private final FileChannel channel;
    private final BlockWriter writer;
    private final long[] elements = new long[2];

    /**
     * Creates (or truncates) the file, writes its header and fills it with NaN.
     *
     * @param path   the {@code .npy} file
     * @param layout where each pair's number goes, and the array's shape
     * @param dtype  the number type
     * @param score  turns a result into its number; called under the sink's lock
     * @throws IOException when the file cannot be created or filled
     */
    public DenseNpySink(Path path, MatrixLayout layout, NpyDtype dtype, ToDoubleFunction<? super R> score)
            throws IOException {
        this(path, layout, dtype, score, DEFAULT_SLOTS);
    }

    DenseNpySink(Path path, MatrixLayout layout, NpyDtype dtype, ToDoubleFunction<? super R> score, int slots)
            throws IOException {
        this(path, layout, dtype, score, slots, false);
    }

    private DenseNpySink(Path path, MatrixLayout layout, NpyDtype dtype, ToDoubleFunction<? super R> score,
                         int slots, boolean shared) throws IOException {
        this.path = path;
        this.layout = layout;
        this.score = score;
        byte[] header = NpyHeader.bytes(NpyHeader.plain(dtype), 0, layout.shape());
        long size = header.length + layout.elements() * dtype.bytes();
        this.channel = shared ? FileChannel.open(path, StandardOpenOption.WRITE)
                : FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        try {
            if (shared) {
                if (channel.size() != size) {
                    throw new IOException(path + " is " + channel.size() + " bytes, not the " + size + " of this "
                            + "run's matrix: is the output's directory one every node sees?");
                }
            } else {
                write(ByteBuffer.wrap(header), 0);
                fillNaN(header.length, layout.elements() * dtype.bytes(), dtype);
            }
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        this.writer = new BlockWriter(channel, header.length, dtype, slots);
    }

    /**
     * Opens the matrix another process created (rank 0 of a cluster run whose nodes each write their share), to
     * write this process's elements into it: nothing is truncated or filled, and only the elements set here are
     * written (see {@link BlockWriter}).
     *
     * @param <K>    key type
     * @param <R>    result type
     * @param path   the {@code .npy} file, which must exist at the full size of {@code layout}'s matrix
     * @param layout where each pair's number goes, and the array's shape
     * @param dtype  the number type
     * @param score  turns a result into its number
     * @return the sink
     * @throws IOException when the file is missing or not the size of this matrix
     */
    public static <K, R> DenseNpySink<K, R> openShared(Path path, MatrixLayout layout, NpyDtype dtype,
                                                       ToDoubleFunction<? super R> score) throws IOException {
        return new DenseNpySink<>(path, layout, dtype, score, DEFAULT_SLOTS, true);
    }

    /**
     * Writes every element set so far into the file (no sync).
     *
     * @throws IOException when the file cannot be written
     */
    public synchronized void writeHeld() throws IOException {
        writer.flush();
    }

    /**
     * Makes what {@link #writeHeld} wrote durable.
     *
     * @throws IOException when the file cannot be synced
     */
    public void sync() throws IOException {
        channel.force(false);
    }

    private void fillNaN(long from, long length, NpyDtype dtype) throws IOException {
        ByteBuffer nan = ByteBuffer.allocateDirect(FILL_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = 0; at < FILL_BYTES; at += dtype.bytes()) {
            dtype.put(nan, at, Double.NaN);
        }
        for (long done = 0; done < length; ) {
            nan.clear().limit((int) Math.min(FILL_BYTES, length - done));
            done += write(nan, from + done);
        }
    }

    private int write(ByteBuffer bytes, long at) throws IOException {
        int written = 0;
        while (bytes.hasRemaining()) {
            written += channel.write(bytes, at + written);
        }
        return written;
    }

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        put(i, j, score.applyAsDouble(result));
    }

    /** The pair's elements hold NaN (as they do from the start; written again for a pair that replaces a result). */
    @Override
    public void failed(int i, int j, K left, K right, Throwable error) {
        put(i, j, Double.NaN);
    }

    private synchronized void put(int i, int j, double value) {
        int count = layout.indices(i, j, elements);
        if (count == 0) {
            throw new IllegalArgumentException("pair (" + i + ", " + j + ") has no element in " + path);
        }
        try {
            for (int k = 0; k < count; k++) {
                writer.put(elements[k], value);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
        }
    }

    /** Writes the blocks still held and closes the file. */
    @Override
    public synchronized void close() throws IOException {
        if (channel.isOpen()) {
            try {
                writer.flush();
            } finally {
                channel.close();
            }
        }
    }
}
