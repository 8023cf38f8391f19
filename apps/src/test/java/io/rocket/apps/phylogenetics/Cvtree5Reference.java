package io.rocket.apps.phylogenetics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * CVTree 5's Hao method as its released code computes it, written from that code's steps with strings and maps and
 * nothing from the main code (nor from {@link CvTreeReference}): the reference of {@link Convention#CVTREE5}.
 *
 * <ul>
 *   <li>{@code readFasta}: lines trimmed of blanks, tabs, CR; empty lines and ';' lines skipped; '>' starts a
 *   gene; other lines are appended to the current gene; one '*' or '-' ending a gene is popped; letters map as
 *   CVTree's {@code Letter} table does (the 20 amino acids, B→D, U→C, X→G, Z→E, lower case as upper, anything else
 *   the first letter, A).</li>
 *   <li>The gene is then encoded a second time, appended to itself ({@code encodeGenome} after {@code readFasta}'s
 *   own encoding), so its code is s + s.</li>
 *   <li>{@code count}: n_k = Σ over genes of (size − k + 1), every window of each gene's code counted.</li>
 *   <li>{@code HaoMethod::markov}: for every (k−2)-string m that occurs, every letter c with m·c occurring and every
 *   letter d with d·m occurring: n0 = factor·n(d·m)·n(m·c)/n(m), factor = n_k·n_{k−2}/n_{k−1}², and
 *   cv[d·m·c] = (n − n0)/n0.</li>
 *   <li>Distance: (1 − cosine)/2.</li>
 * </ul>
 *
 * <p>Where CVTree 5 itself is undefined it differs on purpose: a gene left empty is skipped (CVTree 5 warns and then
 * wraps its unsigned count), and a gene whose doubled code is shorter than k adds nothing at that k (CVTree 5 reads
 * past its end).
 */
public final class Cvtree5Reference {

    private static final String LETTERS = "ACDEFGHIKLMNPQRSTVWY";

    private Cvtree5Reference() {
    }

    /** Every gene's code as CVTree 5 counts it: the sequence read from the text, then appended to itself. */
    public static List<String> genes(String fasta) {
        List<StringBuilder> seqs = new ArrayList<>();
        for (String raw : fasta.split("\n", -1)) {
            String line = raw.strip();
            // strip() also trims characters CVTree keeps (form feed, vertical tab): the generators never write them
            if (line.isEmpty() || line.charAt(0) == ';') {
                continue;
            }
            if (line.charAt(0) == '>') {
                seqs.add(new StringBuilder());
            } else if (!seqs.isEmpty()) {
                seqs.get(seqs.size() - 1).append(line);
            }
        }
        List<String> genes = new ArrayList<>();
        for (StringBuilder seq : seqs) {
            int last = seq.length() - 1;
            if (last >= 0 && (seq.charAt(last) == '*' || seq.charAt(last) == '-')) {
                seq.setLength(last);
            }
            if (seq.length() == 0) {
                continue;
            }
            StringBuilder code = new StringBuilder();
            for (int i = 0; i < seq.length(); i++) {
                code.append(encode(seq.charAt(i)));
            }
            genes.add(code.toString() + code); // readFasta's encoding, then encodeGenome's, appended
        }
        return genes;
    }

    private static char encode(char c) {
        char u = Character.toUpperCase(c);
        if (u < 128 && LETTERS.indexOf(u) >= 0) {
            return u;
        }
        return switch (u) {
            case 'B' -> 'D';
            case 'U' -> 'C';
            case 'X' -> 'G';
            case 'Z' -> 'E';
            default -> 'A';
        };
    }

    /** CVTree's {@code count}: the k-string counts into {@code cv}, returning n_k. */
    public static long count(List<String> genes, int k, Map<String, Double> cv) {
        long n = 0;
        for (String gene : genes) {
            if (gene.length() < k) {
                continue;
            }
            n += gene.length() - k + 1;
            for (int i = 0; i + k <= gene.length(); i++) {
                cv.merge(gene.substring(i, i + k), 1.0, Double::sum);
            }
        }
        return n;
    }

    /** The composition vector (unnormalised) of the genes at string length k. */
    public static Map<String, Double> vector(List<String> genes, int k) {
        Map<String, Double> ck = new HashMap<>();
        Map<String, Double> ck1 = new HashMap<>();
        Map<String, Double> ck2 = new HashMap<>();
        double nk = count(genes, k, ck);
        double nk1 = count(genes, k - 1, ck1);
        double nk2 = count(genes, k - 2, ck2);
        double factor = nk * nk2 / (nk1 * nk1);
        Map<String, Double> cv = new TreeMap<>();
        for (Map.Entry<String, Double> core : ck2.entrySet()) {
            String m = core.getKey();
            for (char c : LETTERS.toCharArray()) {
                Double nA = ck1.get(m + c);
                if (nA == null) {
                    continue;
                }
                for (char d : LETTERS.toCharArray()) {
                    Double nB = ck1.get(d + m);
                    if (nB == null) {
                        continue;
                    }
                    double n0 = factor * nB * nA / core.getValue();
                    double n = ck.getOrDefault(d + m + c, 0.0);
                    cv.put(d + m + c, (n - n0) / n0);
                }
            }
        }
        return cv;
    }

    /** D = (1 − cosine)/2 of two vectors. */
    public static double distance(Map<String, Double> a, Map<String, Double> b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (Map.Entry<String, Double> e : a.entrySet()) {
            na += e.getValue() * e.getValue();
            Double other = b.get(e.getKey());
            if (other != null) {
                dot += e.getValue() * other;
            }
        }
        for (double v : b.values()) {
            nb += v * v;
        }
        return (1 - dot / Math.sqrt(na * nb)) / 2;
    }

    /** CVTree 5's distance of two FASTA texts at string length k. */
    public static double distance(String fastaA, String fastaB, int k) {
        return distance(vector(genes(fastaA), k), vector(genes(fastaB), k));
    }
}
