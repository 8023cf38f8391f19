package io.rocket.apps.phylogenetics;

import static io.rocket.apps.phylogenetics.Proteomes.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distances are CVTree's (Hao method): by hand on small proteomes that touch every convention, and against
 * {@link CvTreeReference} (maps and strings, written from the conventions alone) on messy and generated proteomes.
 *
 * <p>Tolerances: vector values are stored as floats (relative error at most 2^-24 each), so a distance can be off
 * by at most 2^-24 (the cosine sums |a_i·b_i| ≤ 1 with two such errors per product, halved); 1e-7 bounds that.
 */
class CvTreeConventionsTest {

    private static final double FLOAT_STORAGE = 1e-7;

    /**
     * K = 3. Proteome A reads as DDCAC | AC: "dB" + "u*c" is D D C A C (lower case, B as D, U as C, a '*' inside a
     * protein as A); "Ou" is A C (O as A), shorter than K; "*" alone is dropped as a stop ending its protein. Counts:
     * n(DDC) = n(DCA) = n(CAC) = 1, n3 = 3; n(DD) = n(DC) = n(CA) = 1, n(AC) = 2, n2 = 5; n(D) = 2, n(C) = 3,
     * n(A) = 2, n1 = 7; f = 3·7/5² = 0.84. Entries (prefix, suffix and core occur): DDD, DDC, DCA, CAC, ACA, with
     * n0 = 0.42, 0.42, 0.28, 0.84, 0.56: a = −1, 29/21, 18/7, 4/21, −1. DDD and ACA never occur (−1); ACA and a
     * second CAC would occur if strings ran on from DDCAC into AC.
     *
     * <p>Proteome B reads as DDCA ("dbCa"): n3 = 2, n2 = 3, n1 = 4, f = 8/9; entries DDD, DDC, DCA with
     * n0 = 4/9, 4/9, 8/9: a = −1, 5/4, 1/8. Dot product 1 + (29/21)(5/4) + (18/7)(1/8) = 64/21; |A|² = 95/9,
     * |B|² = 165/64.
     */
    private static final String A = ">p1\ndB\nu*c\n>p2 short\nOu\n>p3\n*\n";
    private static final String B = ">q\r\n  dbCa \r\n";

    @Test
    void vector_handComputed_everyConvention() {
        ByteBuffer v = Proteomes.vector(bytes(A), 3);

        String[] keys = {"ACA", "CAC", "DCA", "DDC", "DDD"}; // key order: A < C < D
        double[] raw = {-1, 4.0 / 21, 18.0 / 7, 29.0 / 21, -1};
        double norm = Math.sqrt(95.0 / 9);
        assertThat(CompositionVector.count(v)).isEqualTo(keys.length);
        for (int i = 0; i < keys.length; i++) {
            assertThat(Alphabet.decode(CompositionVector.key(v, i), 3)).isEqualTo(keys[i]);
            assertThat((double) CompositionVector.value(v, i)).as(keys[i])
                    .isCloseTo(raw[i] / norm, within(FLOAT_STORAGE));
        }
        Map<String, Double> reference = CvTreeReference.vector(CvTreeReference.proteins(A), 3);
        assertThat(reference.keySet()).containsExactlyInAnyOrder(keys);
        for (int i = 0; i < keys.length; i++) {
            assertThat(reference.get(keys[i])).isCloseTo(raw[i], within(1e-12));
        }
    }

    @Test
    void distance_handComputed_everyConvention() {
        double cosine = (64.0 / 21) / Math.sqrt(95.0 / 9 * 165.0 / 64);
        double expected = (1 - cosine) / 2;

        double actual = CvDistance.distance(Proteomes.vector(bytes(A), 3), Proteomes.vector(bytes(B), 3));

        assertThat(expected).isCloseTo(0.2079, within(1e-4));
        assertThat(actual).isCloseTo(expected, within(FLOAT_STORAGE));
        assertThat(CvTreeReference.distance(A, B, 3)).isCloseTo(expected, within(1e-12));
    }

    /** The same proteome written with every variant CVTree accepts gives the same vector, bit for bit. */
    @Test
    void vector_variantSpellings_sameAsCanonicalText() {
        String canonical = ">a\nMKVLADCGEAAAWY\n>b\nMKAAK\n>c\nWAW\n";
        String variants = ";comment\n  >a first\r\n mkvl\tbUxz \r\nOJ*wy*\r\n\n>b\nMK*-K-\n>c\n w w\n>d\n*\n";

        assertThat(Proteomes.vector(bytes(variants), 3)).isEqualTo(Proteomes.vector(bytes(canonical), 3));
    }

    /** With the rocket convention '*', '-', blanks and digits are skipped, which is not CVTree's distance. */
    @Test
    void parse_rocketConvention_skipsNonLetters() {
        String messy = ">a\nMKV*LAAG-WK\n>b\nPPQ1RS TY\n>c\nMKVLAAGWKKLLPPAGAGW\n";
        String clean = ">a\nMKVLAAGWK\n>b\nPPQRSTY\n>c\nMKVLAAGWKKLLPPAGAGW\n";

        assertThat(parse(messy, Convention.ROCKET)).isEqualTo(parse(clean, Convention.ROCKET));
        assertThat(parse(messy, Convention.CVTREE)).isNotEqualTo(parse(clean, Convention.CVTREE));
    }

    private static String parse(String text, Convention convention) {
        ByteBuffer out = ByteBuffer.allocate(1024).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int n = new FastaParser(convention).parse("x.faa", Proteomes.direct(bytes(text)), out);
        return Proteomes.residues(out.limit(n));
    }

    @Property(tries = 80)
    void vectorAndDistance_messyProteomes_matchReference(@ForAll("messy") String left, @ForAll("messy") String right,
                                                         @ForAll @IntRange(min = 3, max = 5) int k) {
        List<String> proteinsLeft = CvTreeReference.proteins(left);
        List<String> proteinsRight = CvTreeReference.proteins(right);
        if (CvTreeReference.total(proteinsLeft, k) == 0 || CvTreeReference.total(proteinsRight, k) == 0) {
            return; // no K-string: the builder refuses such a proteome (tested elsewhere)
        }
        Map<String, Double> expected = CvTreeReference.vector(proteinsLeft, k);
        if (ReferenceVector.isZero(expected.values())) {
            // every a(s) is 0 (e.g. one repeated residue): no direction, undefined distances; the builder refuses it
            assertThatThrownBy(() -> Proteomes.vector(bytes(left), k)).isInstanceOf(FastaFormatException.class)
                    .hasMessageContaining("every composition-vector entry is zero");
            return;
        }
        ByteBuffer v = Proteomes.vector(bytes(left), k);
        double norm = Math.sqrt(expected.values().stream().mapToDouble(x -> x * x).sum());
        assertThat(CompositionVector.count(v)).isEqualTo(expected.size());
        int i = 0;
        for (Map.Entry<String, Double> e : expected.entrySet()) { // TreeMap: A < C < D ..., the key order
            assertThat(Alphabet.decode(CompositionVector.key(v, i), k)).isEqualTo(e.getKey());
            assertThat((double) CompositionVector.value(v, i)).as(e.getKey())
                    .isCloseTo(e.getValue() / norm, within(FLOAT_STORAGE));
            i++;
        }
        if (!ReferenceVector.isZero(CvTreeReference.vector(proteinsRight, k).values())) {
            double d = CvDistance.distance(v, Proteomes.vector(bytes(right), k));
            assertThat(d).isCloseTo(CvTreeReference.distance(left, right, k), within(FLOAT_STORAGE));
        }
    }

    @Provide
    Arbitrary<String> messy() {
        // Few distinct letters so that k-strings repeat; lower case, folds, others counting as A, stops and blanks.
        Arbitrary<String> line = Arbitraries.strings().withChars("ACKWackwBUXZbuxzOJ*-1. \t").ofMinLength(0)
                .ofMaxLength(40);
        Arbitrary<String> protein = line.list().ofMinSize(1).ofMaxSize(3)
                .map(lines -> ">p\n" + String.join("\r\n", lines) + (lines.size() % 2 == 0 ? "*" : "") + "\n");
        return protein.list().ofMinSize(1).ofMaxSize(6).map(ps -> String.join("", ps))
                .filter(text -> CvTreeReference.proteins(text).stream().anyMatch(p -> p.length() >= 5));
    }

    /**
     * The slot bound 20·min(20^(K−1), residues) counts the expected-but-absent entries too, and is reached: a protein
     * holding every 2-string once (a de Bruijn sequence, 401 residues) has 399 3-strings, but its vector at K = 3 has
     * an entry for each of the 20^3 strings (prefix, suffix and core all occur), 7,601 of them −1.
     */
    @Test
    void vector_everyTwoStringOccurs_fillsTheSlotBound() {
        String protein = deBruijn2();
        ByteBuffer v = Proteomes.vector(bytes(Proteomes.fasta(protein)), 3);

        assertThat(protein).hasSize(401);
        assertThat((long) CompositionVector.count(v)).isEqualTo(8000).isEqualTo(CompositionVector.maxEntries(3, 401));
        assertThat(CvTreeReference.vector(List.of(protein), 3)).hasSize(8000);
        long minusOne = CvTreeReference.vector(List.of(protein), 3).values().stream().filter(a -> a == -1).count();
        assertThat(minusOne).isEqualTo(8000 - 399);
    }

    /** A linear sequence over the 20 letters holding every 2-string exactly once (FKM algorithm, order 2). */
    private static String deBruijn2() {
        StringBuilder cyclic = new StringBuilder();
        deBruijn(1, 1, new int[3], cyclic);
        return cyclic.append(cyclic.charAt(0)).toString();
    }

    private static void deBruijn(int t, int p, int[] a, StringBuilder out) {
        if (t > 2) {
            if (2 % p == 0) {
                for (int j = 1; j <= p; j++) {
                    out.append(Alphabet.letter(a[j]));
                }
            }
            return;
        }
        a[t] = a[t - p];
        deBruijn(t + 1, p, a, out);
        for (int j = a[t - p] + 1; j < Alphabet.SIZE; j++) {
            a[t] = j;
            deBruijn(t + 1, t, a, out);
        }
    }

    @TempDir
    Path dir;

    /** Generated proteomes (letters only): every distance as the reference's, K = 3..6. */
    @Test
    void distances_generatedProteomes_matchReference() throws IOException {
        for (int k = 3; k <= 6; k++) {
            PhyloGenerator.Result data = PhyloGenerator.generate(dir.resolve("k" + k), 5, 1.0, 120, k);
            DistanceMatrix d = SerialCvTree.distances(data.proteomes(), k);
            List<Map<String, Double>> reference = new ArrayList<>();
            for (Path f : data.proteomes()) {
                reference.add(CvTreeReference.vector(CvTreeReference.proteins(CvTreeReference.read(f)), k));
            }
            for (int i = 0; i < reference.size(); i++) {
                for (int j = 0; j < i; j++) {
                    assertThat(d.get(i, j)).as("K = %d, (%d, %d)", k, i, j)
                            .isCloseTo(CvTreeReference.distance(reference.get(i), reference.get(j)),
                                    within(FLOAT_STORAGE));
                }
            }
        }
    }
}
