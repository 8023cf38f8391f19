package io.rocket.cache;

import java.util.Arrays;

/**
 * The buffer sizes of a byte-budget cache, like memcached's slab classes: from {@link #MIN_BYTES} up by a factor of
 * {@link #GROWTH} to the largest item, whose class is exactly its size. An item takes the smallest class it fits, so
 * it wastes less than a quarter of its size, and buffers of one class are interchangeable, so a freed one is reused
 * without searching for a gap.
 */
final class SizeClasses {
    /** The smallest class: below it the bookkeeping of a buffer costs more than its bytes. */
    static final long MIN_BYTES = 256;
    /** Each class is this much larger than the one before it. */
    static final double GROWTH = 1.25;

    private final long[] bytes;

    /** Classes up to {@code maxBytes} (at least 1), the last one exactly {@code maxBytes}. */
    SizeClasses(long maxBytes) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("the largest item must be at least 1 byte, got " + maxBytes);
        }
        long[] sizes = new long[64];
        int n = 0;
        for (long s = Math.min(MIN_BYTES, maxBytes); s < maxBytes; s = Math.max(s + 1, (long) Math.ceil(s * GROWTH))) {
            if (n == sizes.length) {
                sizes = Arrays.copyOf(sizes, n * 2);
            }
            sizes[n++] = s;
        }
        if (n == sizes.length) {
            sizes = Arrays.copyOf(sizes, n + 1);
        }
        sizes[n++] = maxBytes;
        this.bytes = Arrays.copyOf(sizes, n);
    }

    /** The number of classes. */
    int count() {
        return bytes.length;
    }

    /** The buffer size of class {@code c}. */
    long bytes(int c) {
        return bytes[c];
    }

    /** The largest class: where an item is written before its size is known. */
    int largest() {
        return bytes.length - 1;
    }

    /** The smallest class that holds {@code length} bytes. */
    int classOf(long length) {
        if (length > bytes[bytes.length - 1]) {
            throw new IllegalArgumentException("item of " + length + " bytes is larger than the largest class, "
                    + bytes[bytes.length - 1]);
        }
        int c = Arrays.binarySearch(bytes, length);
        return c >= 0 ? c : -c - 1;
    }
}
