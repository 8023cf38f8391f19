package io.rocket.apps.phylogenetics;

/**
 * Thrown when a parsed or preprocessed item does not fit in the output buffer (a fixed-size cache slot).
 *
 * <p>It names the item, the step, the bytes needed and the bytes available, so that the user knows which slot
 * size to ask for. Where the exact need could be computed (parsing keeps counting after the buffer is full) it is
 * exact; otherwise it is a lower bound, and the message says so.
 */
public class BufferTooSmallException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final long requiredBytes;
    private final long availableBytes;

    /** {@code what} names the item and step, e.g. "E_coli.faa: parsed proteome". */
    public BufferTooSmallException(String what, long requiredBytes, long availableBytes, boolean exact) {
        super(what + " needs " + (exact ? "" : "at least ") + requiredBytes + " bytes but the output buffer holds only "
                + availableBytes + " bytes; raise the slot size");
        this.requiredBytes = requiredBytes;
        this.availableBytes = availableBytes;
    }

    /** Bytes the output needs (exact or a lower bound, see the message). */
    public long requiredBytes() {
        return requiredBytes;
    }

    /** Bytes the output buffer had room for. */
    public long availableBytes() {
        return availableBytes;
    }
}
