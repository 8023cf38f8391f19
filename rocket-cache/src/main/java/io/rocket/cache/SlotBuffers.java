package io.rocket.cache;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * The buffers of a {@link SlotCache}'s slots, made by an allocator either all at once or each when first asked for:
 * memory that is cheap to allocate while other work runs (plain host memory) is then made as items load, so a run
 * does not wait, before its first step, for a few hundred megabytes to be zeroed. Each buffer is set once.
 *
 * @param <B> the slot buffer type
 */
final class SlotBuffers<B> {
    private final IntFunction<B> allocator;
    private final AtomicReferenceArray<B> buffers;

    SlotBuffers(int slots, IntFunction<B> allocator, boolean onFirstUse) {
        this.allocator = allocator;
        this.buffers = new AtomicReferenceArray<>(slots);
        if (!onFirstUse) {
            for (int s = 0; s < slots; s++) {
                buffers.set(s, allocator.apply(s));
            }
        }
    }

    int slots() {
        return buffers.length();
    }

    /** The slot's buffer, allocated by the first caller (whichever thread that is) when not made yet. */
    B get(int slot) {
        B buffer = buffers.get(slot);
        return buffer != null ? buffer : allocate(slot);
    }

    private B allocate(int slot) {
        synchronized (buffers) {
            B buffer = buffers.get(slot);
            if (buffer == null) {
                buffer = allocator.apply(slot);
                buffers.set(slot, buffer);
            }
            return buffer;
        }
    }
}
