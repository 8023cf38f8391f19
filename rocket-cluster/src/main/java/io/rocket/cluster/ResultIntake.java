package io.rocket.cluster;

import io.rocket.core.ResultCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Rank 0's end of result streaming: takes the RESULTS batches the other ranks' {@link ResultStream}s send and
 * decodes them into the {@link ResultCollector} on a thread of its own, so that the user's sink never runs on
 * JGroups' receive threads; tells the progress display which rank computed them. Keeps the last part lengths of
 * each rank that writes its own part ({@link NodePart}); a lost rank's later batches of that kind are ignored, so
 * that its lengths, and the pairs rank 0 counts done, stay those it had when the rank was lost (recovery computes
 * the rest again). Counts the bytes received, for the summary.
 *
 * @param <K> key type
 * @param <R> result type
 */
public final class ResultIntake<K, R> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ResultIntake.class);

    private final ResultCollector<K, R> collector;
    private final ResultCodec<R> codec;
    private final List<K> keys;
    private final Membership membership;
    /** Told which rank computed how many pairs; null when nobody asked. */
    private final ClusterProgress progress;
    private final ExecutorService delivery = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "rocket-results-in");
        t.setDaemon(true);
        return t;
    });
    /** Each rank's last part lengths; only the delivery thread writes it. */
    private final Map<Integer, long[]> partLengths = new ConcurrentHashMap<>();
    private final LongAdder bytesReceived = new LongAdder();

    /** Whether the other ranks write their own parts (and send their lengths rather than results). */
    private final boolean nodeParts;

    /**
     * Rank 0's intake of a run whose results all travel to rank 0.
     *
     * @param collector  where results go
     * @param codec      the results' codec
     * @param keys       the run's keys
     * @param membership the ranks
     * @param progress   told which rank computed how many pairs, or null
     */
    public ResultIntake(ResultCollector<K, R> collector, ResultCodec<R> codec, List<K> keys, Membership membership,
                        ClusterProgress progress) {
        this(collector, codec, keys, membership, progress, false);
    }

    /**
     * Rank 0's intake.
     *
     * @param collector  where results go
     * @param codec      the results' codec
     * @param keys       the run's keys
     * @param membership the ranks
     * @param progress   told which rank computed how many pairs, or null
     * @param nodeParts  the other ranks write their own parts: a lost rank's later batches are ignored
     */
    public ResultIntake(ResultCollector<K, R> collector, ResultCodec<R> codec, List<K> keys, Membership membership,
                        ClusterProgress progress, boolean nodeParts) {
        this.collector = collector;
        this.codec = codec;
        this.keys = keys;
        this.membership = membership;
        this.progress = progress;
        this.nodeParts = nodeParts;
    }

    public void register(ControlDispatcher control) {
        control.register(Wire.Kind.RESULTS, this::onResults);
    }

    private void onResults(org.jgroups.Address from, DataInputStream in) throws IOException {
        byte[] copy = in.readAllBytes();
        bytesReceived.add(copy.length);
        int sender = membership.rankOf(from);
        delivery.execute(() -> {
            try {
                DataInputStream batch = new DataInputStream(new ByteArrayInputStream(copy));
                if (nodeParts && sender > 0 && membership.lost().contains(sender)) {
                    LOG.info("cluster: ignoring a batch from lost rank {}: its part ends where it was lost", sender);
                    return;
                }
                ResultStream.Batch delivered = ResultStream.deliverBatch(batch, codec, keys, collector,
                        collector, collector.finished().ordered());
                if (delivered.partLengths() != null && sender > 0) {
                    partLengths.put(sender, delivered.partLengths());
                }
                if (sender > 0 && progress != null) {
                    progress.computed(sender, delivered.pairs());
                }
            } catch (IOException | RuntimeException e) {
                LOG.error("cluster: bad result batch from {}", from, e);
            }
        });
    }

    /** Returns once every result batch received so far has reached the collector (at most {@code timeoutSeconds}). */
    public void drain(long timeoutSeconds) {
        try {
            delivery.submit(() -> { }).get(timeoutSeconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warn("cluster: result delivery did not drain: {}", e.toString());
        }
    }

    /**
     * The part lengths each rank that writes its own part last sent; call it after {@link #drain}.
     *
     * @return rank to its part's file lengths, a copy
     */
    public Map<Integer, long[]> partLengths() {
        return Map.copyOf(partLengths);
    }

    /**
     * The bytes of result batches received from the other ranks.
     *
     * @return the count so far
     */
    public long bytesReceived() {
        return bytesReceived.sum();
    }

    @Override
    public void close() {
        delivery.shutdownNow();
    }
}
