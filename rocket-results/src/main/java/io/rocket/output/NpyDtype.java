package io.rocket.output;

import java.nio.ByteBuffer;
import java.util.Locale;

/** The floating-point type of the numbers in an {@code .npy} output, little-endian. */
public enum NpyDtype {
    /** IEEE single precision, NumPy {@code <f4}: half the size, about 7 significant digits. */
    FLOAT32("<f4", 4),
    /** IEEE double precision, NumPy {@code <f8}: the results as computed. */
    FLOAT64("<f8", 8);

    private final String descr;
    private final int bytes;

    NpyDtype(String descr, int bytes) {
        this.descr = descr;
        this.bytes = bytes;
    }

    /**
     * The NumPy type string.
     *
     * @return {@code <f4} or {@code <f8}
     */
    public String descr() {
        return descr;
    }

    /**
     * The size of one number.
     *
     * @return 4 or 8 bytes
     */
    public int bytes() {
        return bytes;
    }

    /**
     * Puts {@code value} at {@code at} in a little-endian buffer, in this type.
     *
     * @param into  the buffer, little-endian
     * @param at    the absolute byte position
     * @param value the number (rounded to single precision for {@link #FLOAT32})
     */
    public void put(ByteBuffer into, int at, double value) {
        if (this == FLOAT32) {
            into.putFloat(at, (float) value);
        } else {
            into.putDouble(at, value);
        }
    }

    /**
     * Reads a type name as the command line gives it.
     *
     * @param text {@code float32} (or {@code f4}) or {@code float64} (or {@code f8}), in any case
     * @return the type
     * @throws IllegalArgumentException with a one-line message for any other text
     */
    public static NpyDtype parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "float32", "f4" -> FLOAT32;
            case "float64", "f8" -> FLOAT64;
            default -> throw new IllegalArgumentException("expected float32 or float64, got '" + text + "'");
        };
    }

    /** The name the command line takes: {@code float32} or {@code float64}. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
