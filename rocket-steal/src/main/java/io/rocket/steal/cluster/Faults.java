package io.rocket.steal.cluster;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Injected message loss for testing that the cluster survives it: outgoing messages of one kind are dropped with a
 * probability. Production runs use {@link #NONE}.
 *
 * @param kind        the message kind to drop, or null
 * @param probability chance of dropping each such message
 */
public record Faults(Wire.Kind kind, double probability) {

    public static final Faults NONE = new Faults(null, 0);

    /** Whether to drop an outgoing message of {@code k}. */
    boolean drop(Wire.Kind k) {
        return k == kind && probability > 0 && ThreadLocalRandom.current().nextDouble() < probability;
    }
}
