package io.rocket.apps.phylogenetics;

import java.nio.ByteBuffer;

/**
 * The "preprocessed item": a sparse composition vector as a flat binary layout, with readers and size bounds.
 *
 * <p>Layout, at the buffer's position, in the buffer's byte order (the caller sets little-endian); 4-byte aligned
 * throughout so that a device kernel can read it as int and float arrays:
 * <pre>
 *   offset 0            int    count    number of entries
 *   offset 4            int    k        string length K the vector was built for
 *   offset 8            int    keys[count]     base-20 indices of the K-strings, strictly ascending
 *   offset 8 + 4·count  float  values[count]   a(s) scaled so that Σ values² = 1
 * </pre>
 * Size: {@code 8 + 8·count} bytes. The entries are exactly the K-strings whose (K−1)-prefix and (K−1)-suffix both
 * occur in the proteome (and so their (K−2)-core: the Markov background n0 is positive), as in CVTree's Hao method;
 * strings there that never occur carry the value of a = −1 before scaling. A proteome whose a(s) are all zero has no
 * vector: it cannot be scaled, and the builders refuse it ({@link CompositionVectorBuilder}).
 */
public final class CompositionVector {

    /** Bytes before the key array. */
    public static final int HEADER_BYTES = 8;

    /** Smallest supported K (the background needs (K−2)-strings). */
    public static final int MIN_K = 3;

    /** Largest supported K (keys are ints: 20^7 &lt; 2^31). */
    public static final int MAX_K = 7;

    private CompositionVector() {
    }

    /** Bytes of a vector with {@code count} entries. */
    public static long bytesFor(long count) {
        return HEADER_BYTES + 8 * count;
    }

    /**
     * Largest number of entries a vector for {@code k} can have for a proteome of {@code residues} residues: every
     * entry extends one of the at most min(20^(K−1), residues) distinct (K−1)-strings by one of 20 letters.
     */
    public static long maxEntries(int k, long residues) {
        checkK(k);
        return Alphabet.SIZE * Math.min(Alphabet.power(k - 1), Math.max(0, residues));
    }

    /** Upper bound of the preprocessed size in bytes for {@code k} and {@code residues} residues. */
    public static long maxBytes(int k, long residues) {
        return bytesFor(maxEntries(k, residues));
    }

    /** Number of entries of the vector at {@code v.position()}. */
    public static int count(ByteBuffer v) {
        return v.getInt(v.position());
    }

    /** K of the vector at {@code v.position()}. */
    public static int k(ByteBuffer v) {
        return v.getInt(v.position() + 4);
    }

    /** Key of entry {@code i}. */
    public static int key(ByteBuffer v, int i) {
        return v.getInt(v.position() + HEADER_BYTES + 4 * i);
    }

    /** Value of entry {@code i}. */
    public static float value(ByteBuffer v, int i) {
        int base = v.position();
        return v.getFloat(base + HEADER_BYTES + 4 * v.getInt(base) + 4 * i);
    }

    /** Throws unless {@code k} is in [{@link #MIN_K}, {@link #MAX_K}]. */
    public static void checkK(int k) {
        if (k < MIN_K || k > MAX_K) {
            throw new IllegalArgumentException("K must be in " + MIN_K + ".." + MAX_K + ", got " + k);
        }
    }
}
