package io.rocket.core.trace;

/**
 * Records what the resource threads do, for a timeline view. The no-op tracer costs one branch per event, so
 * call sites need not check {@link #enabled()} unless building arguments is itself costly.
 */
public interface Tracer {

    /** A tracer that records nothing. */
    Tracer NOOP = new Tracer() {
        @Override
        public boolean enabled() {
            return false;
        }

        @Override
        public void nameThread(String name) {
        }

        @Override
        public void complete(TraceEvent event, long startNanos, long endNanos, int a, int b) {
        }

        @Override
        public void counter(String name, String[] series, long[] values) {
        }
    };

    boolean enabled();

    /** Names the calling thread in the trace (one row per thread). */
    void nameThread(String name);

    /**
     * A finished task on the calling thread, with {@link System#nanoTime()} bounds; {@code a}, {@code b} are the
     * item (a) or the pair (a, b), see {@link TraceEvent#args()}.
     */
    void complete(TraceEvent event, long startNanos, long endNanos, int a, int b);

    /** A counter sample now: {@code series[k]} has value {@code values[k]}. */
    void counter(String name, String[] series, long[] values);
}
