package io.rocket.node;

import io.rocket.core.Application;
import io.rocket.core.ItemException;
import io.rocket.core.PairException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What went wrong on a node's pipeline: the items that cannot be loaded (each recorded once, with the error every pair
 * with it carries) and the count of pairs that ended with an error. The messages name the item or pair by index and
 * label, so one line tells the user which input to look at.
 *
 * @param <K> the application's key type
 */
final class PipelineErrors<K> {
    // Logged under the pipeline's name, where users' logging configuration already points.
    private static final Logger LOG = LoggerFactory.getLogger(NodePipeline.class);

    private final Application<K, ?> app;
    private final List<K> keys;
    private final Map<Integer, ItemException> failures = new ConcurrentHashMap<>();
    private final LongAdder pairErrors = new LongAdder();

    PipelineErrors(Application<K, ?> app, List<K> keys) {
        this.app = app;
        this.keys = keys;
    }

    /** The recorded failure of {@code item}, or null when it loads. */
    ItemException failure(int item) {
        return failures.get(item);
    }

    /** Records that an item cannot be loaded; returns the error every pair with it will carry. */
    ItemException recordFailure(int item, Throwable cause) {
        return failures.computeIfAbsent(item, k -> {
            String label = app.label(keys.get(item));
            String reason = cause instanceof ItemException ? cause.getMessage() : describe(cause);
            ItemException e = new ItemException(item, "item " + item + " (" + label + "): " + reason, cause);
            LOG.warn("{}", e.getMessage());
            return e;
        });
    }

    /** The error for a pair whose compare or postprocess threw. */
    Throwable pairError(int i, int j, String step, Throwable cause) {
        String message = "pair (" + i + ", " + j + ") " + app.label(keys.get(i)) + " / " + app.label(keys.get(j))
                + ": " + step + " failed: " + describe(cause);
        LOG.warn("{}", message);
        return new PairException(message, cause);
    }

    /** Counts one more pair that ended with an error. */
    void countPairError() {
        pairErrors.increment();
    }

    /** Items that failed to load, by index. */
    Map<Integer, ItemException> failures() {
        return new TreeMap<>(failures);
    }

    /** Pairs that ended with an error. */
    long pairErrors() {
        return pairErrors.sum();
    }

    private static String describe(Throwable t) {
        String message = t.getMessage();
        return message == null || message.isBlank() ? t.getClass().getSimpleName() : message;
    }
}
