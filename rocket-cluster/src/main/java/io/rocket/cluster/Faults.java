package io.rocket.cluster;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Injected faults, for testing that a cluster run survives them (tests and {@code scripts/chaos}): outgoing control
 * messages of some kinds dropped with a probability, a crash of this node after it computed some pairs (it falls
 * silent at once, as a killed process does, and its run ends with an error), and a delay before each of its pair
 * jobs (a slow node). Production runs use {@link #NONE}.
 *
 * @param drop        the message kinds to drop (empty: none)
 * @param probability chance of dropping each such message
 * @param crashAfter  pairs after which this node crashes, or -1 for never
 * @param delayMicros delay before each pair job of this node, in microseconds (0: none)
 */
public record Faults(Set<Wire.Kind> drop, double probability, long crashAfter, long delayMicros) {

    public static final Faults NONE = new Faults(Set.of(), 0, -1, 0);

    /** Kinds whose loss the protocols recover from by design (timeouts and retries): what chaos runs drop. */
    public static final Set<Wire.Kind> LOSSY = Set.of(Wire.Kind.STEAL_REQUEST, Wire.Kind.STEAL_REPLY,
            Wire.Kind.PROGRESS, Wire.Kind.L3);

    public Faults {
        drop = drop.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(drop));
    }

    /** Drops messages of one kind. */
    public Faults(Wire.Kind kind, double probability) {
        this(Set.of(kind), probability, -1, 0);
    }

    public Faults withCrashAfter(long pairs) {
        return new Faults(drop, probability, pairs, delayMicros);
    }

    public Faults withDelayMicros(long value) {
        return new Faults(drop, probability, crashAfter, value);
    }

    /**
     * Parses {@code KIND[,KIND...]:P} (kinds by name, case-insensitive, or {@code lossy} for {@link #LOSSY}), e.g.
     * {@code lossy:0.03}.
     */
    public static Faults parseDrop(String spec) {
        int colon = spec.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("expected KIND[,KIND...]:PROBABILITY, got '" + spec + "'");
        }
        Set<Wire.Kind> kinds = EnumSet.noneOf(Wire.Kind.class);
        for (String name : spec.substring(0, colon).split(",")) {
            String n = name.trim().toUpperCase(Locale.ROOT);
            if (n.equals("LOSSY")) {
                kinds.addAll(LOSSY);
            } else {
                try {
                    kinds.add(Wire.Kind.valueOf(n));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("unknown message kind '" + name + "'");
                }
            }
        }
        double p;
        try {
            p = Double.parseDouble(spec.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad probability in '" + spec + "'");
        }
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("probability must be in [0, 1], got " + p);
        }
        return new Faults(kinds, p, -1, 0);
    }

    /** Whether to drop an outgoing message of {@code k}. */
    boolean drop(Wire.Kind k) {
        return probability > 0 && drop.contains(k) && ThreadLocalRandom.current().nextDouble() < probability;
    }
}
