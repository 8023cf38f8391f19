package io.rocket.cluster;

import io.rocket.core.ResultCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Rank 0's end of result streaming: takes the RESULTS batches the other ranks' {@link ResultStream}s send and
 * decodes them into the {@link ResultCollector} on a thread of its own, so that the user's sink never runs on
 * JGroups' receive threads; tells the progress display which rank computed them.
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

    public ResultIntake(ResultCollector<K, R> collector, ResultCodec<R> codec, List<K> keys, Membership membership,
                 ClusterProgress progress) {
        this.collector = collector;
        this.codec = codec;
        this.keys = keys;
        this.membership = membership;
        this.progress = progress;
    }

    public void register(ControlDispatcher control) {
        control.register(Wire.Kind.RESULTS, this::onResults);
    }

    private void onResults(org.jgroups.Address from, DataInputStream in) throws IOException {
        byte[] copy = in.readAllBytes();
        int sender = progress == null ? -1 : membership.rankOf(from);
        delivery.execute(() -> {
            try {
                int delivered = ResultStream.deliver(new DataInputStream(new ByteArrayInputStream(copy)), codec, keys,
                        collector, collector, collector.finished().ordered());
                if (sender > 0) {
                    progress.computed(sender, delivered);
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

    @Override
    public void close() {
        delivery.shutdownNow();
    }
}
