package io.rocket.cluster;

import io.rocket.core.ResultCodec;
import io.rocket.core.ResultSink;
import io.rocket.steal.PairRecords;
import io.rocket.steal.reduce.DroppedPairs;
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
 * @param <K> key type
 * @param <R> result type
 */
public final class ResultStream<K, R> implements ResultSink<K, R>, DroppedPairs, AutoCloseable {
    static final int BATCH_BYTES = 32 * 1024;
    static final long FLUSH_MILLIS = 20;

    private final ClusterChannel channel;
    private final Membership membership;
    private final ResultCodec<R> codec;
    private final ScheduledExecutorService flusher;
    private ByteArrayOutputStream bytes = new ByteArrayOutputStream(BATCH_BYTES + 1024);
    private DataOutputStream out = new DataOutputStream(bytes);
    private int records;
    private final DroppedRuns dropped = new DroppedRuns();

    public ResultStream(ClusterChannel channel, Membership membership, ResultCodec<R> codec) {
        this.channel = channel;
        this.membership = membership;
        this.codec = codec;
        this.flusher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rocket-results-flush");
            t.setDaemon(true);
            return t;
        });
        flusher.scheduleAtFixedRate(this::flush, FLUSH_MILLIS, FLUSH_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        synchronized (this) {
            try {
                PairRecords.writeResult(out, i, j, result, codec);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            records++;
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

    /** Sends what is buffered, the open runs of dropped pairs included. */
    public void flush() {
        byte[] batch;
        int count;
        synchronized (this) {
            try {
                records += dropped.writeAll(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (records == 0) {
                return;
            }
            batch = bytes.toByteArray();
            count = records;
            bytes = new ByteArrayOutputStream(BATCH_BYTES + 1024);
            out = new DataOutputStream(bytes);
            records = 0;
        }
        Address rank0 = membership.address(0);
        channel.send(rank0, Wire.encode(Wire.Kind.RESULTS, o -> {
            o.writeInt(count);
            o.write(batch);
        }));
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
        int count = Wire.count(in, 9);
        int pairs = 0;
        for (int k = 0; k < count; k++) {
            pairs += PairRecords.read(in, codec, keys, sink, dropped, false, ordered);
        }
        return pairs;
    }

    @Override
    public void close() {
        flusher.shutdownNow();
        flush();
    }
}
