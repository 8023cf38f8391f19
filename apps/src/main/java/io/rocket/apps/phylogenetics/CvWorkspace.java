package io.rocket.apps.phylogenetics;

/**
 * Per-thread scratch memory for {@link CompositionVectorBuilder}: k-string code arrays, sort buffers, the three
 * count tables (K, K−1, K−2) and the unnormalised output. Arrays grow to the largest proteome seen and are then
 * reused, so building vectors for many items allocates nothing after the first few. Not thread-safe: give each
 * worker thread its own instance.
 *
 * <p>Memory is about 28 bytes per residue of the largest proteome seen, 12 bytes per vector entry and
 * 12·20^(K−2) bytes of dense (K−2)-string tables; counting sorts k-string codes rather than using dense 20^K
 * tables, which would take 256 MB at K = 6 and 5 GB at K = 7.
 */
public final class CvWorkspace {

    int[] codes = new int[0];
    int[] sortTmp = new int[0];
    final int[] histogram = new int[1 << RadixSort.MAX_DIGIT_BITS];

    int[] endsK1 = new int[0];
    int[] endsK2 = new int[0];

    int[] countsK = new int[0];
    int[] keysK1 = new int[0];
    int[] countsK1 = new int[0];
    int[] keysK2 = new int[0];
    int[] countsK2 = new int[0];
    int[] middleCount = new int[0];
    int[] groupStart = new int[0];
    int[] groupEnd = new int[0];
    final int[] letterCount = new int[Alphabet.SIZE];

    int[] outKeys = new int[0];
    double[] outValues = new double[0];
    /** 1/‖a‖ of the vector in outValues (applied while writing); 0 when every value is 0. */
    double inverseNorm = 1.0;

    /** Grows the input-sized arrays for a proteome of {@code residues} residues in {@code proteins} proteins. */
    void ensureInput(int residues, int proteins) {
        codes = grow(codes, residues);
        sortTmp = grow(sortTmp, residues);
        endsK1 = grow(endsK1, proteins);
        endsK2 = grow(endsK2, proteins);
        countsK = grow(countsK, residues);
        keysK1 = grow(keysK1, residues + proteins);
        countsK1 = grow(countsK1, residues + proteins);
        keysK2 = grow(keysK2, residues + 2 * proteins);
        countsK2 = grow(countsK2, residues + 2 * proteins);
    }

    /** Grows the dense (K−2)-string tables to {@code codes} = 20^(K−2) entries. */
    void ensureMiddle(int codes) {
        middleCount = grow(middleCount, codes);
        groupStart = grow(groupStart, codes);
        groupEnd = grow(groupEnd, codes);
    }

    /** Grows the output arrays to hold {@code entries} vector entries. */
    void ensureOutput(int entries) {
        outKeys = grow(outKeys, entries);
        if (outValues.length < entries) {
            outValues = new double[Math.max(entries, outValues.length + (outValues.length >> 1))];
        }
    }

    /** Bytes currently held by the scratch arrays (for sizing thread pools). */
    public long retainedBytes() {
        long ints = (long) codes.length + sortTmp.length + histogram.length + endsK1.length + endsK2.length
                + countsK.length + keysK1.length + countsK1.length + keysK2.length
                + countsK2.length + middleCount.length + groupStart.length + groupEnd.length + outKeys.length;
        return 4 * ints + 8L * outValues.length;
    }

    private static int[] grow(int[] array, int needed) {
        if (array.length >= needed) {
            return array;
        }
        return new int[Math.max(needed, array.length + (array.length >> 1))];
    }
}
