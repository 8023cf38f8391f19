package io.rocket.core.device;

import io.rocket.core.DeviceBuffer;

/** The bounds check every device's {@link Device#slice} makes. */
public final class Slices {
    private Slices() {
    }

    /**
     * Checks a slice's bounds.
     *
     * @param whole the buffer sliced
     * @param offset the slice's first byte
     * @param bytes the slice's capacity
     * @throws IllegalArgumentException when {@code [offset, offset + bytes)} is not inside {@code whole}
     */
    public static void check(DeviceBuffer whole, long offset, long bytes) {
        if (offset < 0 || bytes < 0 || offset > whole.capacity() - bytes) {
            throw new IllegalArgumentException("slice [" + offset + ", " + offset + " + " + bytes
                    + ") outside a buffer of " + whole.capacity() + " bytes");
        }
    }
}
