package io.rocket.output;

import io.rocket.core.ResultSink;
import io.rocket.core.SinkFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Appends kept pairs to a NumPy {@code .npy} structured array with the fields {@code i}, {@code j} (int32, the items'
 * indices) and {@code score} (float32 or float64), one record per pair as it arrives: the sparse output of a run that
 * keeps only some pairs (top-k, thresholds). The header has room for any count and is rewritten with the final
 * count on close, and with the recorded count each time a run journal makes the file durable, so the file a
 * stopped run leaves loads too. Failed pairs are not records (the errors file has them). Its file is a
 * {@link SinkFiles} for a run journal, as the TSV sink's are. Thread-safe.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class SparseNpySink<K, R> implements ResultSink<K, R>, SinkFiles {
    private final AppendFile file;
    private final ToDoubleFunction<? super R> score;
    private final NpyDtype dtype;
    private final String descr;
    private final int headerLength;
    private final int recordBytes;
    private final ByteBuffer record;
    private long recorded;

    /**
     * Opens the file, creating it if needed; without {@code resume} it starts anew with an empty array.
     *
     * @param path   the {@code .npy} file
     * @param dtype  the type of the score field
     * @param score  turns a result into its score; called under the sink's lock
     * @param resume leave an existing file as it is until a journal {@link #cut}s it
     * @throws IOException when the file cannot be created, opened or truncated
     */
    public SparseNpySink(Path path, NpyDtype dtype, ToDoubleFunction<? super R> score, boolean resume)
            throws IOException {
        this.file = new AppendFile(path);
        this.score = score;
        this.dtype = dtype;
        this.descr = "[('i', '<i4'), ('j', '<i4'), ('score', '" + dtype.descr() + "')]";
        this.headerLength = NpyHeader.bytes(descr, 0, Long.MAX_VALUE).length;
        this.recordBytes = 8 + dtype.bytes();
        this.record = ByteBuffer.allocate(recordBytes).order(ByteOrder.LITTLE_ENDIAN);
        if (!resume) {
            cut(new long[] {0});
        }
    }

    private void start() {
        file.write(NpyHeader.bytes(descr, headerLength, 0), 0, headerLength);
    }

    @Override
    public synchronized void accept(int i, int j, K left, K right, R result) {
        record.putInt(0, i).putInt(4, j);
        dtype.put(record, 8, score.applyAsDouble(result));
        file.write(record.array(), 0, recordBytes);
        try {
            file.written();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file.path() + ": " + e.getMessage(), e);
        }
    }

    /** Failed pairs are no records; the errors file lists them. */
    @Override
    public void failed(int i, int j, K left, K right, Throwable error) {
    }

    /** The file already holds replayed records (up to where the journal cut it). */
    @Override
    public void replay(int i, int j, K left, K right, R result) {
    }

    @Override
    public void replayFailed(int i, int j, K left, K right, Throwable error) {
    }

    @Override
    public SinkFiles files() {
        return this;
    }

    @Override
    public List<Path> paths() {
        return List.of(file.path());
    }

    @Override
    public synchronized long[] flush() {
        long length = file.mark();
        recorded = length;
        return new long[] {length};
    }

    /** Writes what {@link #flush} ended, sets the header's count to the records it holds, and syncs. */
    @Override
    public void force() throws IOException {
        long length;
        synchronized (this) {
            length = recorded;
        }
        file.drain();
        rewriteHeader(length);
        file.sync();
    }

    @Override
    public synchronized void cut(long[] lengths) throws IOException {
        long length = lengths[0];
        if (length != 0 && (length < headerLength || (length - headerLength) % recordBytes != 0)) {
            throw new IOException(file.path() + " cannot be cut to " + length + " bytes: not a whole number of "
                    + recordBytes + "-byte records after its " + headerLength + "-byte header");
        }
        file.cut(length);
        if (length == 0) {
            start();
        }
    }

    private void rewriteHeader(long length) throws IOException {
        if (length >= headerLength) {
            long count = (length - headerLength) / recordBytes;
            file.writeAt(ByteBuffer.wrap(NpyHeader.bytes(descr, headerLength, count)), 0);
        }
    }

    /** Writes the records still in memory, sets the header's count to all of them and closes the file. */
    @Override
    public synchronized void close() throws IOException {
        if (!file.isOpen()) {
            return;
        }
        long length = file.mark();
        file.drain();
        rewriteHeader(length);
        file.close();
    }
}
