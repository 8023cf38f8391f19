package io.rocket.apps.phylogenetics;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Builds the CVTree composition vector of a parsed proteome (the "preprocess" step), following Qi, Wang and Hao
 * (2004) as CVTree 5's Hao method computes it.
 *
 * <p>With n(s) the count of string s over all proteins (k-strings never span two proteins) and N_k the number of
 * k-string positions (a protein is what the parser wrote between separators: with {@link Convention#CVTREE5} each
 * protein followed by itself, so CVTree 5's seam strings are counted here with no option of the builder's own), the
 * Markov background of a K-string s = s1..sK is
 * {@code n0(s) = n(s1..sK−1)·n(s2..sK) / n(s2..sK−1) · N_K·N_{K−2} / N_{K−1}²}, and the vector holds
 * {@code a(s) = (n(s) − n0(s)) / n0(s)} for every s with n0(s) &gt; 0, scaled to unit length; see
 * {@link CompositionVector} for the output layout.
 *
 * <p>a(s) is evaluated in double, which can leave a rounding residue of about 1e-16 where n(s) = n0(s) exactly. Such
 * an entry is set to exactly 0: when the double value is that close to 0, the equality
 * n(s)·n(s2..sK−1)·N_{K−1}² = n(s1..sK−1)·n(s2..sK)·N_K·N_{K−2} is checked in integers. A proteome whose entries are
 * then all zero (every K-string occurs exactly as often as its background predicts, as in a protein of one repeated
 * residue) has no direction to scale to unit length, and its distances (1 − cosine)/2 are undefined (CVTree 5
 * prints nan): the builder refuses it with a {@link FastaFormatException} naming the item, as it does a proteome
 * without any K-string, so the runtime fails that item alone. Without the integer check the residues would be scaled
 * up to a unit vector of noise and give arbitrary distances.
 *
 * <p>How it counts: the K-string codes of the proteome are collected into an int array and radix sorted, and a
 * run-length pass yields the distinct K-strings with their counts. The (K−1)-string counts follow without a second
 * sort: every occurrence of a (K−1)-string is either the prefix of a K-string occurrence or the last
 * (K−1)-string of its protein, so n(p) = Σ_c n(p·c) + ends(p), and the sorted K-string keys divided by 20 are
 * already in order. The same step gives the (K−2)-strings, which are few enough (20^(K−2) ≤ 3.2 M) for dense
 * tables. The vector entries are then enumerated as p·c where the suffix of p followed by c is a (K−1)-string that
 * occurs; emitting p in ascending order and c ascending yields ascending keys, so n(s) is found by walking the
 * sorted K-string counts alongside. Everything is primitive arrays in a reusable {@link CvWorkspace}, and the cost
 * is linear in residues plus entries (about 50 ms at K = 5 and 90 ms at K = 6 for a random 1.3 M-residue
 * proteome on one core).
 *
 * <p>Instances are immutable and may be shared; the workspace may not.
 */
public final class CompositionVectorBuilder {

    /** 1/c for small counts c, so that most entries need no division. */
    private static final double[] RECIPROCALS = new double[1 << 12];

    static {
        for (int c = 1; c < RECIPROCALS.length; c++) {
            RECIPROCALS[c] = 1.0 / c;
        }
    }

    /**
     * Below this |a(s)| the entry may be a rounding residue of an exact zero, so the counts are compared in integers.
     * The double evaluation is within a few ulps (about 1e-15) of the true ratio, so every exact zero is caught.
     */
    private static final double ZERO_CHECK = 1e-9;

    private final int k;

    /** A builder for string length {@code k} (3..7; CVTree's default is 5). */
    public CompositionVectorBuilder(int k) {
        CompositionVector.checkK(k);
        this.k = k;
    }

    /** The string length K. */
    public int k() {
        return k;
    }

    /**
     * Builds the vector of the parsed proteome at {@code parsed.position()} (layout of {@link FastaParser}) into
     * {@code out} at its position; neither position changes.
     *
     * @param source item name for error messages
     * @return bytes written
     */
    public int build(String source, ByteBuffer parsed, ByteBuffer out, CvWorkspace ws) {
        int base = parsed.position();
        int proteins = parsed.getInt(base);
        int residues = parsed.getInt(base + 4);
        long parsedBytes = (long) FastaParser.HEADER_BYTES + residues + proteins;
        if (proteins < 0 || residues < 0 || parsedBytes > parsed.limit() - base) {
            throw new IllegalArgumentException(source + ": not a parsed proteome (header says " + proteins
                    + " proteins, " + residues + " residues; buffer holds " + (parsed.limit() - base) + " bytes)");
        }
        ws.ensureInput(residues, proteins);
        Counts counts = collect(source, parsed, base + FastaParser.HEADER_BYTES, residues + proteins, ws);
        RadixSort.sort(ws.codes, ws.sortTmp, ws.histogram, counts.nK, RadixSort.bitsFor(Alphabet.power(k)));
        Arrays.sort(ws.endsK1, 0, counts.endsK1);
        Arrays.sort(ws.endsK2, 0, counts.endsK2);
        int uniqueK = runLength(ws.codes, ws.countsK, counts.nK);
        int uniqueK1 = prefixCounts(ws.codes, ws.countsK, uniqueK, ws.endsK1, counts.endsK1, ws.keysK1, ws.countsK1);
        int uniqueK2 = prefixCounts(ws.keysK1, ws.countsK1, uniqueK1, ws.endsK2, counts.endsK2, ws.keysK2,
                ws.countsK2);
        long nK = counts.nK;
        long nK1 = nK + counts.endsK1;
        long nK2 = nK1 + counts.endsK2;
        if (nK == 0) {
            throw new FastaFormatException(source, "no protein is at least K = " + k + " residues long");
        }
        int entries = enumerate(ws, uniqueK, uniqueK1, uniqueK2, nK, nK1, nK2);
        if (ws.inverseNorm == 0) {
            throw allEntriesZero(source, k);
        }
        return write(source, out, ws, entries);
    }

    /**
     * The error for a proteome whose composition-vector entries are all zero at {@code k}: its distances would be
     * 0/0 (shared by the cuda kernels, so both devices fail such an item with the same message).
     */
    static FastaFormatException allEntriesZero(String source, int k) {
        return new FastaFormatException(source, "every composition-vector entry is zero at K = " + k
                + ": each K-string occurs exactly as often as its Markov background predicts (as in a protein of one"
                + " repeated residue), so the distances to this proteome are undefined");
    }

    /**
     * Whether n(s) = n0(s) exactly, i.e. {@code ns·nm·N_{K−1}² = np·nq·N_K·N_{K−2}}, given
     * {@code nK1Squared = N_{K−1}²} and {@code nKnK2 = N_K·N_{K−2}}. Every count is below 2^31, so each pair's
     * product is below 2^62 and the two sides are compared as exact 128-bit products.
     */
    static boolean countsAsExpected(long ns, long nm, long np, long nq, long nK1Squared, long nKnK2) {
        long observed = ns * nm;
        long expected = np * nq;
        return observed * nK1Squared == expected * nKnK2
                && Math.multiplyHigh(observed, nK1Squared) == Math.multiplyHigh(expected, nKnK2);
    }

    /** Number of K-string codes and protein-end codes collected. */
    private record Counts(int nK, int endsK1, int endsK2) {
    }

    /** Rolls a base-20 code along each protein; K-strings go to ws.codes, protein ends to ws.endsK1/endsK2. */
    private Counts collect(String source, ByteBuffer parsed, int from, int length, CvWorkspace ws) {
        final int modK1 = (int) Alphabet.power(k - 1);
        final int modK2 = (int) Alphabet.power(k - 2);
        final int[] codes = ws.codes;
        int nK = 0;
        int nE1 = 0;
        int nE2 = 0;
        int code = 0;
        int len = 0;
        for (int i = from, end = from + length; i < end; i++) {
            byte b = parsed.get(i);
            if (b >= 0 && b < Alphabet.SIZE) {
                // keep only the last K−1 residues before appending, so the code stays below 20^K
                code = (code % modK1) * Alphabet.SIZE + b;
                if (++len >= k) {
                    codes[nK++] = code;
                }
            } else if (b == FastaParser.SEPARATOR) {
                if (len >= k - 1) {
                    ws.endsK1[nE1++] = code % modK1;
                }
                if (len >= k - 2) {
                    ws.endsK2[nE2++] = code % modK2;
                }
                code = 0;
                len = 0;
            } else {
                throw new IllegalArgumentException(source + ": not a parsed proteome (byte " + b + " at offset "
                        + (i - from) + " of the residue stream)");
            }
        }
        return new Counts(nK, nE1, nE2);
    }

    /** Compacts sorted {@code keys[0..n)} in place to distinct keys, their multiplicities into counts. */
    private static int runLength(int[] keys, int[] counts, int n) {
        int m = 0;
        int i = 0;
        while (i < n) {
            int key = keys[i];
            int j = i + 1;
            while (j < n && keys[j] == key) {
                j++;
            }
            keys[m] = key;
            counts[m] = j - i;
            m++;
            i = j;
        }
        return m;
    }

    /**
     * Counts of the one-shorter strings: the prefixes of the sorted (keys, counts) plus the sorted protein-end
     * codes. Returns the number of distinct shorter strings written to (outKeys, outCounts).
     */
    private static int prefixCounts(int[] keys, int[] counts, int n, int[] ends, int nEnds, int[] outKeys,
                                    int[] outCounts) {
        int m = 0;
        int i = 0;
        int e = 0;
        while (i < n || e < nEnds) {
            int fromKeys = i < n ? keys[i] / Alphabet.SIZE : Integer.MAX_VALUE;
            int fromEnds = e < nEnds ? ends[e] : Integer.MAX_VALUE;
            int key = Math.min(fromKeys, fromEnds);
            int c = 0;
            while (i < n && keys[i] / Alphabet.SIZE == key) {
                c += counts[i++];
            }
            while (e < nEnds && ends[e] == key) {
                c++;
                e++;
            }
            outKeys[m] = key;
            outCounts[m] = c;
            m++;
        }
        return m;
    }

    /**
     * Computes a(s) for every K-string with n0 &gt; 0 into ws.outKeys/outValues in ascending key order; returns the
     * number of entries and leaves 1/‖a‖ in {@code ws.inverseNorm}, 0 when every a(s) is 0.
     */
    private int enumerate(CvWorkspace ws, int uniqueK, int uniqueK1, int uniqueK2, long nK, long nK1, long nK2) {
        final double factor = (double) nK * nK2 / ((double) nK1 * nK1);
        final long nK1Squared = nK1 * nK1;
        final long nKnK2 = nK * nK2;
        final int modK2 = (int) Alphabet.power(k - 2);
        ws.ensureMiddle(modK2);
        locateGroups(ws, uniqueK1, uniqueK2);
        final int[] keysK = ws.codes;
        final int[] countsK = ws.countsK;
        final int[] keysK1 = ws.keysK1;
        final int[] countsK1 = ws.countsK1;
        final int[] middleCount = ws.middleCount;
        final int[] groupStart = ws.groupStart;
        final int[] groupEnd = ws.groupEnd;
        long entries = 0;
        for (int i = 0; i < uniqueK1; i++) {
            int middle = keysK1[i] % modK2;
            entries += groupEnd[middle] - groupStart[middle];
        }
        if (entries > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("composition vector too large: " + entries + " entries");
        }
        ws.ensureOutput((int) entries);
        final int[] outKeys = ws.outKeys;
        final double[] outValues = ws.outValues;
        final int[] letterCount = ws.letterCount; // n(prefix·c) for the current prefix, all zero between prefixes
        int out = 0;
        int kPtr = 0;
        double sumSquares = 0;
        for (int i = 0; i < uniqueK1; i++) {
            int prefix = keysK1[i];
            int middle = prefix % modK2;
            int first = prefix * Alphabet.SIZE;
            // Every K-string that occurs is enumerated, so the ones with this prefix are next in keysK.
            int kStart = kPtr;
            while (kPtr < uniqueK && keysK[kPtr] < first + Alphabet.SIZE) {
                letterCount[keysK[kPtr] - first] = countsK[kPtr];
                kPtr++;
            }
            // n0(p·c) = n(p)·n(m·c)/n(m)·factor, so 1/n0 = inverseScale/n(m·c):
            // one division per prefix, not per entry
            double inverseScale = middleCount[middle] / (countsK1[i] * factor);
            int groupBase = middle * Alphabet.SIZE;
            for (int j = groupStart[middle], end = groupEnd[middle]; j < end; j++) {
                int c = keysK1[j] - groupBase;
                double a = letterCount[c] * (inverseScale * reciprocal(countsK1[j])) - 1.0;
                if (a < ZERO_CHECK && a > -ZERO_CHECK && countsAsExpected(letterCount[c], middleCount[middle],
                        countsK1[i], countsK1[j], nK1Squared, nKnK2)) {
                    a = 0.0;
                }
                outKeys[out] = first + c;
                outValues[out] = a;
                out++;
                sumSquares += a * a;
            }
            for (int t = kStart; t < kPtr; t++) {
                letterCount[keysK[t] - first] = 0;
            }
        }
        ws.inverseNorm = sumSquares > 0 ? 1.0 / Math.sqrt(sumSquares) : 0.0;
        return out;
    }

    private static double reciprocal(int count) {
        return count < RECIPROCALS.length ? RECIPROCALS[count] : 1.0 / count;
    }

    /**
     * Dense tables over (K−2)-string codes m (20^(K−2) entries, at most 3.2 M at K = 7): n(m), and the index range
     * in the sorted (K−1)-strings of those starting with m, i.e. the possible suffixes q = m·c of an entry. Only the
     * entries of (K−2)-strings that occur are written, and only those are read, so the tables need no clearing.
     */
    private static void locateGroups(CvWorkspace ws, int uniqueK1, int uniqueK2) {
        int[] keysK1 = ws.keysK1;
        int j = 0;
        for (int t = 0; t < uniqueK2; t++) {
            int middle = ws.keysK2[t];
            int first = middle * Alphabet.SIZE;
            while (j < uniqueK1 && keysK1[j] < first) {
                j++;
            }
            ws.groupStart[middle] = j;
            while (j < uniqueK1 && keysK1[j] < first + Alphabet.SIZE) {
                j++;
            }
            ws.groupEnd[middle] = j;
            ws.middleCount[middle] = ws.countsK2[t];
        }
    }

    private int write(String source, ByteBuffer out, CvWorkspace ws, int entries) {
        int base = out.position();
        long needed = CompositionVector.bytesFor(entries);
        long available = out.limit() - base;
        if (needed > available) {
            throw new BufferTooSmallException(source + ": composition vector (K = " + k + ", " + entries
                    + " entries)", needed, available, true);
        }
        out.putInt(base, entries);
        out.putInt(base + 4, k);
        int keyAt = base + CompositionVector.HEADER_BYTES;
        int valueAt = keyAt + 4 * entries;
        int[] keys = ws.outKeys;
        double[] values = ws.outValues;
        double scale = ws.inverseNorm;
        for (int i = 0; i < entries; i++) {
            out.putInt(keyAt + 4 * i, keys[i]);
            out.putFloat(valueAt + 4 * i, (float) (values[i] * scale));
        }
        return (int) needed;
    }
}
