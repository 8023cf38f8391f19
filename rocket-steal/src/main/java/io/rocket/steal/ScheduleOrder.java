package io.rocket.steal;

import java.util.Locale;

/** The order in which a node runs the pair matrix. */
public enum ScheduleOrder {
    /** Bands of rows sized to L2, the columns streaming past them ({@link BandOrder}): the default. */
    BLOCKED,
    /** The paper's order: quadtree leaves along the Hilbert curve, kept for comparison. */
    QUADTREE;

    /** The option value that names this order. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The order named {@code text} (case-insensitive); an unknown name is an IllegalArgumentException. */
    public static ScheduleOrder parse(String text) {
        for (ScheduleOrder order : values()) {
            if (order.id().equalsIgnoreCase(text.trim())) {
                return order;
            }
        }
        throw new IllegalArgumentException("unknown schedule order '" + text + "' (blocked or quadtree)");
    }
}
