package io.rocket.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The one rule for the buffers the runtime hands to application code, shared by {@link HostBuffer} and
 * {@link DeviceBuffer}: application code works on a view of its own, made once per buffer, never on the buffer the
 * runtime copies through; and at every hand-over the view is set back to position 0, little-endian, with its limit
 * at the bytes the step may use, whatever the previous user of the pooled buffer left in it. Setting a position and
 * a limit allocates nothing, so this runs on the hot path.
 */
final class AppView {
    private AppView() {
    }

    /** The view application code gets of {@code memory}: shares the bytes, not the position, limit or order. */
    static ByteBuffer of(ByteBuffer memory) {
        return memory.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Readies {@code view} for one hand-over: position 0, limit {@code limit}, no mark, little-endian. */
    static void reset(ByteBuffer view, long limit) {
        view.clear().limit((int) limit);
        view.order(ByteOrder.LITTLE_ENDIAN);
    }
}
