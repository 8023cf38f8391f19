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

    /**
     * Whether this tracer records anything; check it only where building an event's arguments costs something.
     *
     * @return true when events are recorded, false for {@link #NOOP}
     */
    boolean enabled();

    /**
     * Names the calling thread in the trace (one row per thread).
     *
     * @param name the row's name, e.g. {@code kernel 0}; a later call on the same thread renames the row
     */
    void nameThread(String name);

    /**
     * A finished task on the calling thread, with {@link System#nanoTime()} bounds; {@code a}, {@code b} are the
     * item (a) or the pair (a, b), see {@link TraceEvent#args()}. Called on hot paths: must not block and should
     * not allocate.
     *
     * @param event what the task was, never null
     * @param startNanos when it started, in {@link System#nanoTime()} nanoseconds
     * @param endNanos when it ended, in {@link System#nanoTime()} nanoseconds, at least {@code startNanos}
     * @param a the item's index, or the pair's first item index (see {@link TraceEvent#args()})
     * @param b the pair's second item index, or -1 for an item event
     */
    void complete(TraceEvent event, long startNanos, long endNanos, int a, int b);

    /**
     * A counter sample now: {@code series[k]} has value {@code values[k]}.
     *
     * @param name the counter track's name, e.g. {@link TraceCounter#trackName()}
     * @param series the series names, one per value; copied, so the caller may reuse the array
     * @param values the values, as many as {@code series}; copied, so the caller may reuse the array
     */
    void counter(String name, String[] series, long[] values);
}
