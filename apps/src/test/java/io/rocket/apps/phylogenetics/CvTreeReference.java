package io.rocket.apps.phylogenetics;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

/**
 * CVTree's Hao method written straight from its conventions, with strings and maps and nothing from the main code:
 * the reference the distances are checked against.
 *
 * <ul>
 *   <li>FASTA text is read line by line; a line is trimmed of blanks, tabs, CR at both ends; empty lines and lines
 *   starting with ';' are skipped; '>' starts a protein; every other line is appended to the current protein. A
 *   protein ending in '*' or '-' loses that one character.</li>
 *   <li>Letters: the 20 amino acids {@code ACDEFGHIKLMNPQRSTVWY}; B counts as D, U as C, X as G, Z as E; lower case
 *   as upper case; every other character as A.</li>
 *   <li>k-strings are counted within each protein; n_k = Σ max(0, L − k + 1).</li>
 *   <li>Expected count of s = a1..aK: f·n(a1..aK−1)·n(a2..aK)/n(a2..aK−1), f = n_K·n_{K−2}/n_{K−1}².</li>
 *   <li>An entry for every K-string whose (K−1)-prefix, (K−1)-suffix and (K−2)-core occur: (n − n0)/n0.</li>
 *   <li>D = (1 − cosine)/2.</li>
 * </ul>
 */
public final class CvTreeReference {

    static final String AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY";

    private CvTreeReference() {
    }

    /** The letter a character counts as. */
    static char letter(char c) {
        char u = c >= 'a' && c <= 'z' ? (char) (c - 'a' + 'A') : c;
        if (AMINO_ACIDS.indexOf(u) >= 0) {
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

    /** The proteins of a FASTA text as strings over the 20 letters. */
    public static List<String> proteins(String fasta) {
        List<StringBuilder> raw = new ArrayList<>();
        for (String line : fasta.split("\n", -1)) {
            String t = trim(line);
            if (t.isEmpty() || t.charAt(0) == ';') {
                continue;
            }
            if (t.charAt(0) == '>') {
                raw.add(new StringBuilder());
            } else if (!raw.isEmpty()) {
                raw.get(raw.size() - 1).append(t);
            }
        }
        List<String> out = new ArrayList<>();
        for (StringBuilder p : raw) {
            if (p.length() > 0 && (p.charAt(p.length() - 1) == '*' || p.charAt(p.length() - 1) == '-')) {
                p.setLength(p.length() - 1);
            }
            StringBuilder mapped = new StringBuilder();
            for (int i = 0; i < p.length(); i++) {
                mapped.append(letter(p.charAt(i)));
            }
            out.add(mapped.toString());
        }
        return out;
    }

    private static String trim(String s) {
        int from = 0;
        int to = s.length();
        while (from < to && " \t\r\n".indexOf(s.charAt(from)) >= 0) {
            from++;
        }
        while (to > from && " \t\r\n".indexOf(s.charAt(to - 1)) >= 0) {
            to--;
        }
        return s.substring(from, to);
    }

    /** The text of a FASTA file, gunzipped when it is gzip. */
    public static String read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readAllBytes();
            if (bytes.length >= 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b) {
                try (InputStream gz = new GZIPInputStream(new java.io.ByteArrayInputStream(bytes))) {
                    bytes = gz.readAllBytes();
                }
            }
            return new String(bytes, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** K-string → (n − n0)/n0, not normalised. */
    public static Map<String, Double> vector(List<String> proteins, int k) {
        Map<String, Integer> nK = counts(proteins, k);
        Map<String, Integer> nK1 = counts(proteins, k - 1);
        Map<String, Integer> nK2 = counts(proteins, k - 2);
        double f = total(proteins, k) * total(proteins, k - 2) / (total(proteins, k - 1) * total(proteins, k - 1));
        Map<String, Double> out = new TreeMap<>();
        for (String prefix : nK1.keySet()) {
            for (char c : AMINO_ACIDS.toCharArray()) {
                String s = prefix + c;
                String suffix = s.substring(1);
                String core = s.substring(1, k - 1);
                if (!nK1.containsKey(suffix) || !nK2.containsKey(core)) {
                    continue;
                }
                double expected = f * nK1.get(prefix) * nK1.get(suffix) / nK2.get(core);
                double n = nK.getOrDefault(s, 0);
                out.put(s, (n - expected) / expected);
            }
        }
        return out;
    }

    /** D = (1 − cosine)/2 of two vectors. */
    public static double distance(Map<String, Double> a, Map<String, Double> b) {
        double dot = 0;
        for (Map.Entry<String, Double> e : a.entrySet()) {
            Double other = b.get(e.getKey());
            if (other != null) {
                dot += e.getValue() * other;
            }
        }
        return (1 - dot / (norm(a) * norm(b))) / 2;
    }

    /** The distance of two FASTA texts at string length k. */
    public static double distance(String fastaA, String fastaB, int k) {
        return distance(vector(proteins(fastaA), k), vector(proteins(fastaB), k));
    }

    private static double norm(Map<String, Double> v) {
        double sum = 0;
        for (double x : v.values()) {
            sum += x * x;
        }
        return Math.sqrt(sum);
    }

    static Map<String, Integer> counts(List<String> proteins, int k) {
        Map<String, Integer> counts = new HashMap<>();
        for (String p : proteins) {
            for (int i = 0; i + k <= p.length(); i++) {
                counts.merge(p.substring(i, i + k), 1, Integer::sum);
            }
        }
        return counts;
    }

    static double total(List<String> proteins, int k) {
        double n = 0;
        for (String p : proteins) {
            n += Math.max(0, p.length() - k + 1);
        }
        return n;
    }
}
