package io.rocket.apps.phylogenetics;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** A slow, obviously-correct composition vector straight from the formulas, with strings and maps. */
final class ReferenceVector {

    private ReferenceVector() {
    }

    /** Key → a(s), not normalised, for proteins over {@link Alphabet#LETTERS}. */
    static SortedMap<Long, Double> raw(List<String> proteins, int k) {
        Map<String, Integer> nK = counts(proteins, k);
        Map<String, Integer> nK1 = counts(proteins, k - 1);
        Map<String, Integer> nK2 = counts(proteins, k - 2);
        double totalK = total(nK);
        double totalK1 = total(nK1);
        double totalK2 = total(nK2);
        SortedMap<Long, Double> out = new TreeMap<>();
        for (String prefix : nK1.keySet()) {
            for (char c : Alphabet.LETTERS.toCharArray()) {
                String s = prefix + c;
                String suffix = s.substring(1);
                if (!nK1.containsKey(suffix)) {
                    continue;
                }
                double n0 = (double) nK1.get(prefix) * nK1.get(suffix) / nK2.get(s.substring(1, k - 1))
                        * totalK * totalK2 / (totalK1 * totalK1);
                double n = nK.getOrDefault(s, 0);
                out.put(Alphabet.encode(s), (n - n0) / n0);
            }
        }
        return out;
    }

    /**
     * Whether a reference vector is zero: every a(s) within a rounding residue (about 1e-16) of 0. The builder then
     * refuses the proteome (its distances are undefined). A nonzero a(s) of the small proteomes the tests generate is
     * at least 1/(n(p)·n(q)·N_K·N_{K−2}), far above 1e-13.
     */
    static boolean isZero(Collection<Double> values) {
        return values.stream().allMatch(v -> Math.abs(v) < ZERO);
    }

    /** Below this |a(s)| a reference value is a rounding residue of 0 (see {@link #isZero}). */
    static final double ZERO = 1e-13;

    /** As {@link #raw}, scaled to unit length. */
    static SortedMap<Long, Double> normalised(List<String> proteins, int k) {
        SortedMap<Long, Double> raw = raw(proteins, k);
        double sum = 0;
        for (double v : raw.values()) {
            sum += v * v;
        }
        double norm = Math.sqrt(sum);
        SortedMap<Long, Double> out = new TreeMap<>();
        raw.forEach((key, v) -> out.put(key, norm > 0 ? v / norm : v));
        return out;
    }

    private static Map<String, Integer> counts(List<String> proteins, int k) {
        Map<String, Integer> counts = new HashMap<>();
        for (String p : proteins) {
            for (int i = 0; i + k <= p.length(); i++) {
                counts.merge(p.substring(i, i + k), 1, Integer::sum);
            }
        }
        return counts;
    }

    private static double total(Map<String, Integer> counts) {
        double sum = 0;
        for (int c : counts.values()) {
            sum += c;
        }
        return sum;
    }
}
