package io.rocket.apps.phylogenetics;

/**
 * Least-significant-digit radix sort of non-negative ints with caller-provided scratch, used to count k-strings
 * by sorting their base-20 codes. For a proteome of a million residues this beats a dense 20^k count array
 * (64 M ints at k = 6) in memory and is as fast as a hash table without boxing.
 */
final class RadixSort {

    /** Largest digit width in bits; the histogram array must hold 1 &lt;&lt; MAX_DIGIT_BITS ints. */
    static final int MAX_DIGIT_BITS = 11;

    private RadixSort() {
    }

    /**
     * Sorts {@code data[0..n)}, whose values lie in {@code [0, 2^bits)}, ascending. {@code tmp} holds at least
     * {@code n} ints and {@code histogram} at least {@code 1 << MAX_DIGIT_BITS}; both are overwritten.
     */
    static void sort(int[] data, int[] tmp, int[] histogram, int n, int bits) {
        if (n < 2) {
            return;
        }
        int passes = Math.max(1, (bits + MAX_DIGIT_BITS - 1) / MAX_DIGIT_BITS);
        int digitBits = (bits + passes - 1) / passes;
        int radix = 1 << digitBits;
        int mask = radix - 1;
        int[] from = data;
        int[] to = tmp;
        for (int pass = 0; pass < passes; pass++) {
            int shift = pass * digitBits;
            java.util.Arrays.fill(histogram, 0, radix, 0);
            for (int i = 0; i < n; i++) {
                histogram[(from[i] >>> shift) & mask]++;
            }
            if (histogram[(from[0] >>> shift) & mask] == n) {
                continue; // every value has the same digit here: the order is already right
            }
            int sum = 0;
            for (int d = 0; d < radix; d++) {
                int c = histogram[d];
                histogram[d] = sum;
                sum += c;
            }
            for (int i = 0; i < n; i++) {
                int v = from[i];
                to[histogram[(v >>> shift) & mask]++] = v;
            }
            int[] swap = from;
            from = to;
            to = swap;
        }
        if (from != data) {
            System.arraycopy(from, 0, data, 0, n);
        }
    }

    /** Bits needed to hold every value below {@code exclusiveMax} (at least 1). */
    static int bitsFor(long exclusiveMax) {
        return Math.max(1, 64 - Long.numberOfLeadingZeros(Math.max(1, exclusiveMax - 1)));
    }
}
