package io.rocket.apps.forensics;

import io.rocket.core.ItemTooLargeException;

/**
 * Thrown when a decoded image or a preprocessed item does not fit in the output buffer (a fixed-size cache slot).
 *
 * <p>The message names the item and step, the bytes needed and the bytes available, so that the user knows which
 * slot size to ask for; the check happens before any data is written.
 */
public class BufferTooSmallException extends ItemTooLargeException {

    private static final long serialVersionUID = 1L;

    private final long requiredBytes;
    private final long availableBytes;

    /** {@code what} names the item and step, e.g. "photo3.jpg: gray image 4000x3000". */
    public BufferTooSmallException(String what, long requiredBytes, long availableBytes) {
        super(what + " needs " + requiredBytes + " bytes but the output buffer holds only " + availableBytes
                + " bytes; raise the slot size", null);
        this.requiredBytes = requiredBytes;
        this.availableBytes = availableBytes;
    }

    /** Bytes the output needs. */
    public long requiredBytes() {
        return requiredBytes;
    }

    /** Bytes the output buffer had room for. */
    public long availableBytes() {
        return availableBytes;
    }
}
