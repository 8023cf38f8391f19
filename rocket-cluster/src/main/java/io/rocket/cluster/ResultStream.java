package io.rocket.cluster;

import io.rocket.core.ResultCodec;
import io.rocket.core.ResultSink;
import io.rocket.results.PairRecords;
import io.rocket.results.reduce.DroppedPairs;
import org.jgroups.Address;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Streams a non-zero rank's results to rank 0 in batches (never one message per pair): records are appended to a
 * buffer and sent when it holds {@link #BATCH_BYTES} or every {@link #FLUSH_MILLIS} ms, each record in the form of
 * {@link PairRecords}. Pairs the node's reduction dropped are acknowledged in the same stream, as runs of
 * consecutive columns ({@link DroppedRuns}), written out before every send, so that rank 0 has them before this
 * node's claims in a recovery round.
 *
 * <p>With a {@link NodePart} (a shared output every node writes its share of), a result goes into the node's own
 * part and only its pair is acknowledged, in the same runs as dropped pairs: rank 0 receives what the run needs to
 * know which pairs are done, not the results. Each batch then ends with the part's lengths, marked under the same
 * lock as the acknowledgements and synced before the batch leaves, so that what rank 0 has acknowledged is in the
 * part within the lengths it has, and nothing more is. Batches then go every {@link #PART_FLUSH_MILLIS} ms, a sync
 * each. Failures, and pairs (i, j) with i &gt; j, still travel whole.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class ResultStream<K, R> implements ResultSink<K, R>, DroppedPairs, AutoCloseable {
    static final int BATCH_BYTES = 32 * 1024;
    static final long FLUSH_MILLIS = 20;
    /** How often a node that writes its own part syncs it and acknowledges its pairs. */
    static final long PART_FLUSH_MILLIS = 500;
    /** The most files a part may have; more in a batch is a bad batch. */
    static final int MAX_PART_FILES = 16;

    private final ClusterChannel channel;
    private final Membership membership;
    private final ResultCodec<R> codec;
    private final ScheduledExecutorService flusher;
    private ByteArrayOutputStream bytes = new ByteArrayOutputStream(BATCH_BYTES + 1024);
    private DataOutputStream out = new DataOutputStream(bytes);
    private int records;
    private final DroppedRuns dropped = new DroppedRuns();
    /** This node's own part of a shared output, or null when every result travels to rank 0. */
    private final NodePart<K, R> part;
    /** Serialises the sends: a batch's part is synced before it leaves, and batches leave in the order marked. */
    private final Object sending = new Object();
    /** Set by the first {@link #close}, under {@link #sending}. */
    private boolean closed;

    /**
     * A stream of every result to rank 0.
     *
     * @param channel    the cluster's channel
     * @param membership where rank 0 is
     * @param codec      the results' codec
     */
    public ResultStream(ClusterChannel channel, Membership membership, ResultCodec<R> codec) {
        this(channel, membership, codec, null);
    }

    /**
     * A stream that writes this node's results into {@code part} and acknowledges their pairs to rank 0.
     *
     * @param channel    the cluster's channel
     * @param membership where rank 0 is
     * @param codec      the results' codec (failures and pairs i &gt; j still travel whole)
     * @param part       this node's part of a shared output, closed with the stream; null to stream every result
     */
    public ResultStream(ClusterChannel channel, Membership membership, ResultCodec<R> codec, NodePart<K, R> part) {
        this.channel = channel;
        this.membership = membership;
        this.codec = codec;
        this.part = part;
        long every = part == null ? FLUSH_MILLIS : PART_FLUSH_MILLIS;
        this.flusher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rocket-results-flush");
            t.setDaemon(true);
            return t;
        });
        flusher.scheduleAtFixedRate(this::flushQuietly, every, every, TimeUnit.MILLISECONDS);
    }

    /** The timer's flush: a part that cannot be written fails the pairs' writes on the threads that give results. */
    private void flushQuietly() {
        try {
            flush();
        } catch (UncheckedIOException e) {
            partFailure = e;
        }
    }

    /** The first write of the part that failed on the timer's thread; the next result rethrows it. */
    private volatile UncheckedIOException partFailure;

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        synchronized (this) {
            try {
                if (part != null && i < j) {
                    UncheckedIOException failure = partFailure;
                    if (failure != null) {
                        throw failure;
                    }
                    part.accept(i, j, left, right, result);
                    records += dropped.add(i, j, out);
                } else {
                    PairRecords.writeResult(out, i, j, result, codec);
                    records++;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (bytes.size() < BATCH_BYTES) {
                return;
            }
        }
        flush();
    }

    @Override
    public void failed(int i, int j, K left, K right, Throwable error) {
        synchronized (this) {
            try {
                PairRecords.writeFailure(out, i, j, error);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            records++;
        }
        flush();
    }

    @Override
    public void dropped(int i, int fromJ, int count) {
        synchronized (this) {
            try {
                if (count == 1) {
                    records += dropped.add(i, fromJ, out);
                } else {
                    PairRecords.writeDropped(out, i, fromJ, count);
                    records++;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (bytes.size() < BATCH_BYTES) {
                return;
            }
        }
        flush();
    }

    /**
     * Sends what is buffered, the open runs of dropped pairs included; with a part, marks it, syncs it and sends its
     * lengths with the batch.
     *
     * @throws UncheckedIOException when the part cannot be written
     */
    public void flush() {
        synchronized (sending) {
            byte[] batch;
            int count;
            long[] lengths = null;
            synchronized (this) {
                try {
                    records += dropped.writeAll(out);
                    if (part != null) {
                        lengths = part.mark();
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                if (records == 0 && part == null) {
                    return;
                }
                batch = bytes.toByteArray();
                count = records;
                bytes = new ByteArrayOutputStream(BATCH_BYTES + 1024);
                out = new DataOutputStream(bytes);
                records = 0;
            }
            if (part != null) {
                try {
                    part.sync(); // outside the lock: results go on arriving while the disk catches up
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            long[] marked = lengths;
            Address rank0 = membership.address(0);
            channel.send(rank0, Wire.encode(Wire.Kind.RESULTS, o -> {
                o.writeInt(count);
                o.write(batch);
                if (marked != null) {
                    o.writeInt(marked.length);
                    for (long length : marked) {
                        o.writeLong(length);
                    }
                }
            }));
        }
    }

    /** What one batch held: the pairs it delivered, and the sender's part lengths when it writes a part. */
    record Batch(int pairs, long[] partLengths) {
    }

    /**
     * Decodes a batch into {@code sink} (rank 0). Untrusted bytes are rejected with an IOException before anything
     * reaches the sink for the bad record: a count the batch cannot hold (a record is at least 9 bytes), an unknown
     * record kind, or a pair that is not i &lt; j of this run. Records before a bad one are delivered.
     *
     * @return the number of pairs delivered (the whole batch; a run of dropped pairs counts its pairs)
     */
    static <K, R> int deliver(DataInputStream in, ResultCodec<R> codec, List<K> keys, ResultSink<K, R> sink)
            throws IOException {
        return deliver(in, codec, keys, sink, null, false);
    }

    /**
     * As above; runs of dropped pairs go to {@code dropped} (null: refused), and with {@code ordered} (pairs in both
     * orientations) a pair may also be i &gt; j.
     */
    static <K, R> int deliver(DataInputStream in, ResultCodec<R> codec, List<K> keys, ResultSink<K, R> sink,
                              DroppedPairs dropped, boolean ordered) throws IOException {
        return deliverBatch(in, codec, keys, sink, dropped, ordered).pairs();
    }

    /**
     * Decodes a batch as {@link #deliver} does and reads the part lengths that end the batch of a node writing its
     * own part: at most {@link #MAX_PART_FILES} lengths, none negative, and nothing after them.
     *
     * @return the pairs delivered and the part's lengths (null when the batch has none)
     * @throws IOException for a bad batch
     */
    static <K, R> Batch deliverBatch(DataInputStream in, ResultCodec<R> codec, List<K> keys, ResultSink<K, R> sink,
                                     DroppedPairs dropped, boolean ordered) throws IOException {
        int count = Wire.count(in, 9);
        int pairs = 0;
        for (int k = 0; k < count; k++) {
            pairs += PairRecords.read(in, codec, keys, sink, dropped, false, ordered);
        }
        if (in.available() == 0) {
            return new Batch(pairs, null);
        }
        int files = in.readInt();
        if (files < 0 || files > MAX_PART_FILES || in.available() != 8L * files) {
            throw new IOException("bad part lengths (" + files + " files, " + in.available() + " bytes)");
        }
        long[] lengths = new long[files];
        for (int f = 0; f < files; f++) {
            lengths[f] = in.readLong();
            if (lengths[f] < 0) {
                throw new IOException("bad part length " + lengths[f]);
            }
        }
        return new Batch(pairs, lengths);
    }

    @Override
    public void close() {
        synchronized (sending) {
            if (closed) {
                return; // the end of the run closes it, and the node's resources again
            }
            closed = true;
        }
        flusher.shutdownNow();
        try {
            flush();
        } finally {
            if (part != null) {
                try {
                    part.close(); // its last marks went with the flush: closing changes no length
                } catch (Exception e) {
                    throw new IllegalStateException("cannot close this node's part: " + e.getMessage(), e);
                }
            }
        }
    }
}
