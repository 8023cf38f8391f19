package io.rocket.apps.forensics;

import java.io.IOException;

/**
 * Thrown when a photo cannot be used: not a JPEG, a truncated or corrupt JPEG, an encoding the decoder cannot
 * read, or dimensions other than those of the rest of the collection.
 *
 * <p>It is a per-file error: the message starts with the photo's label ("photo3.jpg: truncated JPEG") and
 * {@link #reason()} says which problem it was, so that the runtime can mark that one item failed and go on.
 */
public class PhotoFormatException extends IOException {

    private static final long serialVersionUID = 1L;

    /** What is wrong with the photo. */
    public enum Reason {
        /** The bytes do not start with a JPEG SOI marker. */
        NOT_JPEG,
        /** The data end before the image is complete. */
        TRUNCATED,
        /** The decoder found invalid JPEG data. */
        CORRUPT,
        /** A valid JPEG the decoder cannot turn into gray (e.g. CMYK, 12-bit). */
        UNSUPPORTED,
        /** The image is not of the expected width × height. */
        WRONG_SIZE
    }

    private final Reason reason;

    /** {@code label} names the photo; {@code detail} says what is wrong. */
    public PhotoFormatException(String label, Reason reason, String detail) {
        super(label + ": " + detail);
        this.reason = reason;
    }

    /** {@code label} names the photo; {@code detail} says what is wrong; {@code cause} is the decoder's error. */
    public PhotoFormatException(String label, Reason reason, String detail, Throwable cause) {
        super(label + ": " + detail, cause);
        this.reason = reason;
    }

    /** Which problem it was. */
    public Reason reason() {
        return reason;
    }
}
