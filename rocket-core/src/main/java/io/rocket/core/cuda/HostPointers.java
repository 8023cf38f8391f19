package io.rocket.core.cuda;

import jcuda.Pointer;

import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Finds the native pointer for a host buffer being copied, without allocating per copy: pinned buffers map to the
 * pointer cuMemHostAlloc returned, remembered here after the first copy (the set of host buffers is fixed at start
 * up). Other direct buffers still work, through a fresh pointer each time, at pageable-memory speed. Each copy
 * direction has its own instance, used by one thread at a time (the device's copy thread), so its lock is never
 * contended; it is there only so that a misbehaving caller cannot corrupt the map.
 */
final class HostPointers {
    private final PinnedHostMemory pinned;
    private final Map<ByteBuffer, Pointer> known = new IdentityHashMap<>();

    HostPointers(PinnedHostMemory pinned) {
        this.pinned = pinned;
    }

    synchronized Pointer of(ByteBuffer buffer) {
        Pointer pointer = known.get(buffer);
        if (pointer == null) {
            pointer = pinned == null ? null : pinned.pointer(buffer);
            if (pointer == null) {
                // Not ours: do not remember it (that would keep arbitrary buffers alive); position 0 is its start.
                return Pointer.to(buffer.duplicate().clear());
            }
            known.put(buffer, pointer);
        }
        return pointer;
    }
}
