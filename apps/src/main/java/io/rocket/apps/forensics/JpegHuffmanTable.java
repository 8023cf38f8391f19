package io.rocket.apps.forensics;

import java.util.Arrays;

/**
 * One JPEG Huffman table (a DHT entry) with the lookup tables the scan decoder reads instead of walking the code
 * bit by bit: every code of at most {@value #FAST_BITS} bits is found with one index by the next
 * {@value #FAST_BITS} bits of the stream; only longer codes (rare: they are the least frequent symbols) go through
 * the canonical-code search of {@link #decodeSlow}.
 *
 * <p>Three tables, all indexed by the next {@value #FAST_BITS} bits:
 * <ul>
 * <li>{@link #lookup}: {@code (codeLength << 8) | symbol}, 0 when the code is longer.</li>
 * <li>{@link #fastValue} (DC tables): the code and the value bits after it in one step, {@code (value << 16) |
 * (codeLength + valueBits)}, when both fit in {@value #FAST_BITS} bits; 0 otherwise. (For AC coefficients a
 * combined lookup did not pay: with noisy photos it misses often, and the miss is a branch the processor cannot
 * predict.)</li>
 * <li>{@link #skip} (AC tables): how far a coefficient that is not needed moves the zig-zag index (run + 1; 16 for
 * ZRL; 64 for EOB) and how many bits it takes with its value bits, {@code (advance << 8) | bits}; 0 when the code
 * is longer. Chroma blocks of a colour photo are only skipped, so their value bits are never decoded.</li>
 * </ul>
 * Not thread-safe; redefined in place when a DHT segment replaces the table between scans.
 */
final class JpegHuffmanTable {

    /**
     * Bits looked up at once: 10 covers the codes of all but the rarest symbols of the usual tables, in 4 KiB per
     * table (L1-resident); longer codes take the slower canonical search.
     */
    static final int FAST_BITS = 10;

    /** {@code (codeLength << 8) | symbol} for codes of at most {@link #FAST_BITS} bits. */
    final int[] lookup = new int[1 << FAST_BITS];
    /** Code and value decoded together; see the class comment. */
    final int[] fastValue = new int[1 << FAST_BITS];
    /** Advance and length of a skipped AC coefficient; see the class comment. */
    final int[] skip = new int[1 << FAST_BITS];

    /** The largest code of each length 1..16 (right-aligned), or -1 when no code has that length. */
    private final int[] maxCode = new int[17];
    /** {@code values[valueOffset[l] + code]} is the symbol of a code of length l. */
    private final int[] valueOffset = new int[17];
    private final int[] values = new int[256];
    private boolean defined;

    /** Forgets the table (a new photo starts without tables). */
    void clear() {
        defined = false;
    }

    /** Whether a DHT segment defined this table. */
    boolean defined() {
        return defined;
    }

    /**
     * Builds the table from a DHT entry: {@code counts[l - 1]} codes of length l, then their symbols.
     *
     * @param dc whether it is a DC table (symbols are value sizes 0..15) rather than an AC table (run/size)
     * @return null when the table is valid, otherwise what is wrong with it
     */
    String define(int[] counts, int[] symbols, boolean dc) {
        int total = 0;
        for (int c : counts) {
            total += c;
        }
        if (total > 256 || total != symbols.length) {
            return "Huffman table with " + total + " codes";
        }
        for (int s : symbols) {
            // a DC difference has at most 15 bits (16-bit samples); larger sizes would read past any value
            if (dc && s > 15) {
                return "DC Huffman table with symbol " + s;
            }
        }
        Arrays.fill(lookup, 0);
        Arrays.fill(fastValue, 0);
        Arrays.fill(skip, 0);
        System.arraycopy(symbols, 0, values, 0, symbols.length);
        int code = 0;
        int k = 0;
        for (int len = 1; len <= 16; len++) {
            int n = counts[len - 1];
            valueOffset[len] = k - code;
            for (int i = 0; i < n; i++, k++, code++) {
                if (len <= FAST_BITS) {
                    fillFast(code, len, symbols[k], dc);
                }
            }
            maxCode[len] = n == 0 ? -1 : code - 1;
            // as libjpeg: the codes of one length must fit in it, and the all-ones code is not allowed
            if (code >= (1 << len)) {
                return "Huffman table whose codes overflow " + len + " bits";
            }
            code <<= 1;
        }
        defined = true;
        return null;
    }

    private void fillFast(int code, int len, int symbol, boolean dc) {
        int spare = FAST_BITS - len;
        int first = code << spare;
        int run = dc ? 0 : symbol >> 4;
        int size = dc ? symbol : symbol & 15;
        for (int i = 0; i < (1 << spare); i++) {
            int idx = first | i;
            lookup[idx] = (len << 8) | symbol;
            if (!dc) {
                int advance = size == 0 ? (run == 15 ? 16 : 64) : run + 1;
                skip[idx] = (advance << 8) | (len + size);
            }
            if (dc && len + size <= FAST_BITS) {
                int bits = size == 0 ? 0 : (idx >> (spare - size)) & ((1 << size) - 1);
                fastValue[idx] = (extend(bits, size) << 16) | (run << 8) | (len + size);
            }
        }
    }

    /** The signed value of {@code size} value bits (JPEG's EXTEND): a leading 0 bit means negative. */
    static int extend(int bits, int size) {
        return size == 0 ? 0 : bits < (1 << (size - 1)) ? bits - (1 << size) + 1 : bits;
    }

    /**
     * Finds a code longer than {@link #FAST_BITS} in the left-aligned bits {@code buffer} (at least 16 valid).
     *
     * @return {@code (codeLength << 8) | symbol}, or -1 when no code matches (corrupt data)
     */
    int decodeSlow(long buffer) {
        for (int len = FAST_BITS + 1; len <= 16; len++) {
            int code = (int) (buffer >>> (64 - len));
            if (code <= maxCode[len]) {
                return (len << 8) | values[valueOffset[len] + code];
            }
        }
        return -1;
    }
}
