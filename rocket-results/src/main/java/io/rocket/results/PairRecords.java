package io.rocket.results;

import io.rocket.core.ItemTooLargeException;
import io.rocket.core.ResultCodec;
import io.rocket.core.ResultSink;
import io.rocket.results.reduce.DroppedPairs;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;

/**
 * The binary form of one finished pair, shared by the cluster's result stream and the run journal:
 * {@code [byte ok][int i][int j]} followed by the application's {@link ResultCodec} bytes, or for a failed pair
 * (ok = 0) by its error message (modified UTF-8, at most {@link #MAX_MESSAGE} characters); ok = 3 marks a failure
 * because an item did not fit a buffer the run sized ({@link ItemTooLargeException}), which a run with larger
 * buffers may compute, and is read back with that exception as its cause. A run of pairs that a node computed and
 * dropped ({@link DroppedPairs}) is {@code [byte 2][int i][int j][int count]}: pairs
 * {@code (i, j) .. (i, j + count - 1)}, done without a result.
 */
public final class PairRecords {
    /** Longest error message kept; longer ones are cut. */
    public static final int MAX_MESSAGE = 2000;
    /** The kind byte of a pair that failed because an item did not fit the run's buffers. */
    private static final int TOO_LARGE = 3;

    private PairRecords() {
    }

    /**
     * Writes a computed pair.
     *
     * @param out    where the record goes
     * @param i      the pair's first item index
     * @param j      the pair's second item index
     * @param result the pair's result
     * @param codec  the application's result codec, which writes {@code result}
     * @param <R>    result type
     * @throws IOException when {@code out} cannot be written
     */
    public static <R> void writeResult(DataOutput out, int i, int j, R result, ResultCodec<R> codec)
            throws IOException {
        out.writeByte(1);
        out.writeInt(i);
        out.writeInt(j);
        codec.write(result, out);
    }

    /**
     * Writes a failed pair with its message, and whether an item was too large for the run's buffers.
     *
     * @param out   where the record goes
     * @param i     the pair's first item index
     * @param j     the pair's second item index
     * @param error why the pair failed; its message is kept, cut to {@link #MAX_MESSAGE} characters
     * @throws IOException when {@code out} cannot be written
     */
    public static void writeFailure(DataOutput out, int i, int j, Throwable error) throws IOException {
        out.writeByte(ItemTooLargeException.isCause(error) ? TOO_LARGE : 0);
        out.writeInt(i);
        out.writeInt(j);
        String message = String.valueOf(error.getMessage());
        out.writeUTF(message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) : message);
    }

    /**
     * Writes a run of pairs done without a result: {@code (i, fromJ) .. (i, fromJ + count - 1)}.
     *
     * @param out   where the record goes
     * @param i     the pairs' first item index
     * @param fromJ the second item index of the run's first pair
     * @param count the pairs in the run, at least 1
     * @throws IOException when {@code out} cannot be written
     */
    public static void writeDropped(DataOutput out, int i, int fromJ, int count) throws IOException {
        out.writeByte(2);
        out.writeInt(i);
        out.writeInt(fromJ);
        out.writeInt(count);
    }

    /**
     * Reads one record that must be a pair's result or failure, a pair i &lt; j: as
     * {@link #read(DataInput, ResultCodec, List, ResultSink, DroppedPairs, boolean, boolean)} where no run of dropped
     * pairs is accepted.
     *
     * @param in     the record
     * @param codec  the application's result codec
     * @param keys   the run's items, in index order
     * @param sink   where the pair's result or failure goes
     * @param replay whether the pair goes to {@code sink} as one read back ({@link ResultSink#replay})
     * @param <K>    key type
     * @param <R>    result type
     * @return the pairs the record stands for: 1
     * @throws IOException when the record is cut short, names no pair of {@code keys}, or is a dropped run
     */
    public static <K, R> int read(DataInput in, ResultCodec<R> codec, List<K> keys, ResultSink<K, R> sink,
                                   boolean replay) throws IOException {
        return read(in, codec, keys, sink, null, replay, false);
    }

    /**
     * Reads one record: a pair's result or failure into {@code sink}, as a new result or with {@code replay} as one
     * read back from a journal ({@link ResultSink#replay}); a run of dropped pairs into {@code dropped}. The caller
     * names what takes dropped runs, since only some readers expect them (rank 0 of a cluster run with a reduction):
     * elsewhere such a record is refused.
     *
     * @param in      the record
     * @param codec   the application's result codec
     * @param keys    the run's items, in index order
     * @param sink    where a pair's result or failure goes
     * @param dropped where a run of dropped pairs goes, or null where none is accepted
     * @param replay  whether a pair goes to {@code sink} as one read back
     * @param ordered whether a pair may also be (i, j) with i &gt; j (an application computed in both orientations)
     * @param <K>     key type
     * @param <R>     result type
     * @return the pairs the record stands for: 1, or a dropped run's length
     * @throws IOException when the record is cut short, names no pair of {@code keys}, or is a dropped run where
     *         {@code dropped} is null
     */
    public static <K, R> int read(DataInput in, ResultCodec<R> codec, List<K> keys, ResultSink<K, R> sink,
                                   DroppedPairs dropped, boolean replay, boolean ordered) throws IOException {
        int ok = in.readByte();
        int i = in.readInt();
        int j = in.readInt();
        if (ok == 2) {
            return readDropped(in, i, j, keys.size(), dropped);
        }
        boolean orientation = ordered ? i != j : i < j;
        if ((ok != 0 && ok != 1 && ok != TOO_LARGE) || i < 0 || j < 0 || !orientation || i >= keys.size()
                || j >= keys.size()) {
            throw new IOException("bad pair record (" + ok + ", " + i + ", " + j + ") for " + keys.size() + " items");
        }
        K left = keys.get(i);
        K right = keys.get(j);
        if (ok == 1) {
            R result;
            try {
                result = codec.read(in);
            } catch (RuntimeException e) { // a codec fed bad bytes: the record is bad, not the reader
                throw new IOException("bad result for pair (" + i + ", " + j + "): " + e, e);
            }
            if (replay) {
                sink.replay(i, j, left, right, result);
            } else {
                sink.accept(i, j, left, right, result);
            }
        } else {
            String message = in.readUTF();
            RecordedFailure error = ok == TOO_LARGE
                    ? new RecordedFailure(message, new ItemTooLargeException(message, null))
                    : new RecordedFailure(message);
            if (replay) {
                sink.replayFailed(i, j, left, right, error);
            } else {
                sink.failed(i, j, left, right, error);
            }
        }
        return 1;
    }

    private static int readDropped(DataInput in, int i, int fromJ, int n, DroppedPairs dropped) throws IOException {
        int count = in.readInt();
        if (i < 0 || fromJ <= i || count < 1 || (long) fromJ + count > n) {
            throw new IOException("bad dropped-pairs record (" + i + ", " + fromJ + ", " + count + ") for " + n
                    + " items");
        }
        if (dropped == null) {
            throw new IOException("a dropped-pairs record where only results are expected");
        }
        dropped.dropped(i, fromJ, count);
        return count;
    }

    /** A pair that failed elsewhere (on another node, or in an earlier run); the message is the original one. */
    public static final class RecordedFailure extends Exception {
        /**
         * A failure read back without a cause.
         *
         * @param message the original error message
         */
        public RecordedFailure(String message) {
            super(message, null, false, false);
        }

        /**
         * A failure read back with what caused it ({@link ItemTooLargeException} for a buffer too small).
         *
         * @param message the original error message
         * @param cause   what caused the failure, or null
         */
        public RecordedFailure(String message, Throwable cause) {
            super(message, cause, false, false);
        }
    }
}
