package io.rocket.apps.phylogenetics;

import static io.rocket.apps.phylogenetics.Proteomes.bytes;
import static io.rocket.apps.phylogenetics.Proteomes.direct;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.within;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link Convention#CVTREE5}: every protein counted as itself followed by itself, as CVTree 5's released code does.
 * By hand on a two-protein toy at K = 3 (the seam strings and n_k listed), and against {@link Cvtree5Reference}
 * (written from CVTree 5's steps) on random proteomes: the builder's double-precision vector and distance to 1e-12,
 * the stored (float) vector's distance to the float bound.
 */
class Cvtree5ConventionTest {

    /** Vector values are stored as floats: a distance is off by at most 2^-24 (see CvTreeConventionsTest). */
    private static final double FLOAT_STORAGE = 1e-7;
    private static final double EXACT = 1e-12;

    /**
     * Proteome P: "acd*" reads as ACD (lower case, the '*' ending it dropped before the doubling) and "CA-" as CA.
     * Counted as ACDACD and CACA.
     *
     * <p>3-strings: ACDACD has ACD, CDA, DAC, ACD, of which CDA and DAC cross the seam (K − 1 = 2 of them); CACA has
     * CAC and ACA, both across the seam (CA alone is shorter than K and has none). n(ACD) = 2, n(CDA) = n(DAC) =
     * n(CAC) = n(ACA) = 1; n_3 = (2·3 − 3 + 1) + (2·2 − 3 + 1) = 4 + 2 = 6.
     * 2-strings: AC, CD, DA (seam), AC, CD and CA, AC (seam), CA: n(AC) = 3, n(CD) = 2, n(DA) = 1, n(CA) = 2;
     * n_2 = 5 + 3 = 8. 1-strings: n(A) = 4, n(C) = 4, n(D) = 2; n_1 = 6 + 4 = 10. f = n_3·n_1/n_2² = 60/64 = 15/16.
     *
     * <p>Entries (prefix, suffix and core occur), n0 = f·n(prefix)·n(suffix)/n(core), a = (n − n0)/n0:
     * ACA 45/32 → −13/45; ACD 45/32 → 19/45; CAC 45/32 → −13/45; CDA 15/16 → 1/15; DAC 45/64 → 19/45.
     * |a|² = 1069/2025.
     */
    private static final String P = ">p1\nacd*\n>p2 short\nCA-\n";

    /**
     * Proteome Q: one protein ACA, counted as ACAACA. 3-strings ACA, CAA (seam), AAC (seam), ACA: n_3 = 4; 2-strings
     * AC, CA, AA (seam), AC, CA: n_2 = 5; n(A) = 4, n(C) = 2, n_1 = 6; f = 24/25. Entries: AAA 6/25 → −1,
     * AAC 12/25 → 13/12, ACA 48/25 → 1/24, CAA 12/25 → 13/12, CAC 24/25 → −1; |a|² = 2505/576. Shared with P: ACA and
     * CAC, dot product (−13/45)(1/24) + (−13/45)(−1) = 299/1080.
     */
    private static final String Q = ">q\nACA\n";

    @Test
    void parse_cvtree5_writesEveryProteinTwiceAfterDroppingItsStop() {
        ByteBuffer parsed = parse(P, Convention.CVTREE5);

        assertThat(Proteomes.residues(parsed)).isEqualTo("ACDACD|CACA|");
        assertThat(FastaParser.proteinCount(parsed)).isEqualTo(2);
        assertThat(FastaParser.residueCount(parsed)).isEqualTo(2 * (3 + 2));
        assertThat(parsed.limit()).isEqualTo(8 + 10 + 2);
        assertThat(Proteomes.residues(parse(P, Convention.CVTREE))).isEqualTo("ACD|CA|");
    }

    @Test
    void vector_cvtree5_handComputedSeamStrings() {
        String[] keys = {"ACA", "ACD", "CAC", "CDA", "DAC"}; // key order: A < C < D
        double[] raw = {-13.0 / 45, 19.0 / 45, -13.0 / 45, 1.0 / 15, 19.0 / 45};
        double norm = Math.sqrt(1069.0 / 2025);

        Exact v = exact(P, 3);

        assertThat(v.values.keySet()).containsExactly(keys);
        for (int i = 0; i < keys.length; i++) {
            assertThat(v.values.get(keys[i])).as(keys[i]).isCloseTo(raw[i] / norm, within(EXACT));
        }
        // the reference agrees, including every n_k
        List<String> genes = Cvtree5Reference.genes(P);
        assertThat(genes).containsExactly("ACDACD", "CACA");
        assertThat(Cvtree5Reference.count(genes, 3, new HashMap<>())).isEqualTo(6);
        assertThat(Cvtree5Reference.count(genes, 2, new HashMap<>())).isEqualTo(8);
        assertThat(Cvtree5Reference.count(genes, 1, new HashMap<>())).isEqualTo(10);
        Map<String, Double> reference = Cvtree5Reference.vector(genes, 3);
        assertThat(reference.keySet()).containsExactly(keys);
        for (int i = 0; i < keys.length; i++) {
            assertThat(reference.get(keys[i])).isCloseTo(raw[i], within(EXACT));
        }
    }

    @Test
    void distance_cvtree5_handComputed() {
        double cosine = (299.0 / 1080) / Math.sqrt(1069.0 / 2025 * 2505.0 / 576);
        double expected = (1 - cosine) / 2;

        assertThat(expected).isCloseTo(0.40864, within(1e-5));
        assertThat(exact(P, 3).distance(exact(Q, 3))).isCloseTo(expected, within(EXACT));
        assertThat(Cvtree5Reference.distance(P, Q, 3)).isCloseTo(expected, within(EXACT));
        assertThat(CvDistance.distance(vector(P, 3), vector(Q, 3))).isCloseTo(expected, within(FLOAT_STORAGE));
        // the published method (each protein once) differs: P has the single 3-string ACD there
        assertThat(CvDistance.distance(vector(P, 3, Convention.CVTREE), vector(Q, 3, Convention.CVTREE)))
                .isNotCloseTo(expected, within(1e-3));
    }

    /**
     * A protein shorter than K counts once its doubled length reaches K: at K = 5, KW (KWKW) adds no 5-string but a
     * 4-string KWKW and the 3-strings KWK and WKW; MKVLA (MKVLAMKVLA) adds 6 5-strings, 4 of them across the seam.
     */
    @Test
    void vector_cvtree5_shortProteinsCountWhereTheirDoubleReachesTheOrder() {
        String text = ">a\nKW\n>b\nMKVLA\n>c\nWWK\n";
        List<String> genes = Cvtree5Reference.genes(text);

        assertThat(genes).containsExactly("KWKW", "MKVLAMKVLA", "WWKWWK");
        assertThat(Cvtree5Reference.count(genes, 5, new HashMap<>())).isEqualTo(0 + 6 + 2);
        assertThat(Cvtree5Reference.count(genes, 4, new HashMap<>())).isEqualTo(1 + 7 + 3);
        assertThat(Cvtree5Reference.count(genes, 3, new HashMap<>())).isEqualTo(2 + 8 + 4);
        assertEqualsReference(text, 5);
        assertThatThrownBy(() -> vector(">a\nKW\n", 5)).isInstanceOf(FastaFormatException.class)
                .hasMessageContaining("no protein is at least K = 5");
        assertEqualsReference(">a\nKWA\n", 5); // 6 residues doubled: two 5-strings
    }

    /**
     * A sample the random proteomes below found (seed 8474813552969658079, shrunk), K = 4: AAAA is counted as
     * AAAAAAAA and AA as AAAA. Each has the single entry AAAA, whose count is exactly its background: n0 = n(AAA)²/n(AA)
     * · N_4·N_2/N_3² = 6·6/7 · 5·7/36 = 5 = n(AAAA) for AAAAAAAA and 2·2/3 · 1·3/4 = 1 = n(AAAA) for AAAA, so a = 0.
     * A vector of zeros has no direction: the cosine is 0/0, CVTree 5 prints nan for every distance of such a
     * proteome, and the builder refuses it as a bad item. (It used to take the −1.1e-16 that the double evaluation
     * leaves for AAAAAAAA, scale it to the unit vector a(AAAA) = −1, and give AA's zeros the distance 0.5 to
     * everything.) The unshrunk sample, "A.-O", reads as AAAA too.
     */
    @Test
    void vector_cvtree5_everyEntryZero_distanceUndefinedAndItemRefused() {
        String left = ">p\nAAAA\n";
        String right = ">p\nAA\n";
        int k = 4;
        assertThat(Cvtree5Reference.genes(left)).containsExactly("AAAAAAAA");
        assertThat(Cvtree5Reference.genes(right)).containsExactly("AAAA");
        assertThat(Cvtree5Reference.vector(Cvtree5Reference.genes(left), k)).containsExactly(entry("AAAA", 0.0));
        assertThat(Cvtree5Reference.vector(Cvtree5Reference.genes(right), k)).containsExactly(entry("AAAA", 0.0));
        assertThat(Cvtree5Reference.distance(left, right, k)).isNaN();
        assertThat(CompositionVectorBuilder.countsAsExpected(5, 7, 6, 6, 6 * 6, 5 * 7)).isTrue();
        assertThat(CompositionVectorBuilder.countsAsExpected(1, 3, 2, 2, 2 * 2, 1 * 3)).isTrue();

        for (String text : List.of(left, right, ">p\nA.-O\n")) {
            assertThatThrownBy(() -> vector(text, k)).as(text).isInstanceOf(FastaFormatException.class)
                    .hasMessage("x.faa: every composition-vector entry is zero at K = 4: each K-string occurs exactly"
                            + " as often as its Markov background predicts (as in a protein of one repeated residue),"
                            + " so the distances to this proteome are undefined");
        }
    }

    /**
     * Random small proteomes (messy text, short proteins): vector and distance as CVTree 5's, K = 3..6; a proteome
     * whose reference vector is zero is refused.
     */
    @Property(tries = 120)
    void vectorAndDistance_randomProteomes_equalCvtree5Reference(@ForAll("proteomes") String left,
                                                                @ForAll("proteomes") String right,
                                                                @ForAll @IntRange(min = 3, max = 6) int k) {
        if (!hasKString(left, k) || !hasKString(right, k)) {
            return; // no K-string: the builder refuses such a proteome (tested above)
        }
        Map<String, Double> reference = Cvtree5Reference.vector(Cvtree5Reference.genes(left), k);
        Map<String, Double> other = Cvtree5Reference.vector(Cvtree5Reference.genes(right), k);
        for (String text : List.of(left, right)) {
            if (ReferenceVector.isZero(Cvtree5Reference.vector(Cvtree5Reference.genes(text), k).values())) {
                // a vector of zeros has no direction, the distance is undefined: the builder refuses the proteome
                assertThatThrownBy(() -> vector(text, k)).isInstanceOf(FastaFormatException.class)
                        .hasMessageContaining("every composition-vector entry is zero at K = " + k);
            }
        }
        if (ReferenceVector.isZero(reference.values()) || ReferenceVector.isZero(other.values())) {
            return;
        }
        assertEqualsReference(left, k);
        double expected = Cvtree5Reference.distance(reference, other);
        assertThat(exact(left, k).distance(exact(right, k))).isCloseTo(expected, within(EXACT));
        assertThat(CvDistance.distance(vector(left, k), vector(right, k))).isCloseTo(expected,
                within(FLOAT_STORAGE));
    }

    /**
     * The sizes allow for the second copy: 8 + 2·text + 1 bytes from the text, 8 + 3R from {@code --max-residues}
     * (reached by proteins of one residue: R separators), a vector bound for 2R residues, and a parse that does not
     * fit reports its exact size and a {@code --max-residues} whose bound holds it.
     */
    @Test
    void sizes_cvtree5_allowForTheSecondCopy() throws java.io.IOException {
        byte[] ones = bytes(">a\nA\n>b\nC\n>c\nD");
        ByteBuffer tight = ByteBuffer.allocate((int) FastaParser.maxParsedBytesForResidues(3, Convention.CVTREE5))
                .order(ByteOrder.LITTLE_ENDIAN);
        assertThat(tight.capacity()).isEqualTo(8 + 9);
        assertThat(new FastaParser(Convention.CVTREE5).parse("o.faa", direct(ones), tight)).isEqualTo(8 + 9);
        assertThat(Proteomes.residues(tight)).isEqualTo("AA|CC|DD|");
        assertThat(FastaParser.maxParsedBytes(ones.length, Convention.CVTREE5))
                .isGreaterThanOrEqualTo(8 + 9).isEqualTo(8 + 2L * ones.length + 1);

        byte[] file = bytes(Proteomes.fasta("ACDEFGHIKL", "MNPQRSTVWY", "AAAAA"));
        ByteBuffer small = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN);
        assertThatThrownBy(() -> new FastaParser(Convention.CVTREE5).parse("big.faa", direct(file), small))
                .isInstanceOf(BufferTooSmallException.class)
                .hasMessage("big.faa: parsed proteome (3 proteins, 25 residues, each protein twice) needs 61 bytes but "
                        + "the output buffer holds only 40 bytes; raise the slot size")
                .satisfies(e -> {
                    long r = FastaParser.residuesForParsedBytes(((BufferTooSmallException) e).requiredBytes(),
                            Convention.CVTREE5);
                    assertThat(r).isGreaterThanOrEqualTo(25);
                    assertThat(FastaParser.maxParsedBytesForResidues(r, Convention.CVTREE5)).isGreaterThanOrEqualTo(61);
                });

        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("cvtree5-sizes");
        try {
            java.nio.file.Path faa = java.nio.file.Files.write(dir.resolve("x.faa"), file);
            SlotSizes once = SlotSizes.measure(List.of(faa), 3, Convention.CVTREE, 1000L, null);
            SlotSizes twice = SlotSizes.measure(List.of(faa), 3, Convention.CVTREE5, 1000L, null);
            assertThat(once.inputBytes()).isEqualTo(8 + 2000);
            assertThat(twice.inputBytes()).isEqualTo(8 + 3000);
            assertThat(once.entries()).isEqualTo(CompositionVector.maxEntries(3, 1000));
            assertThat(twice.entries()).isEqualTo(CompositionVector.maxEntries(3, 2000));
            assertThat(SlotSizes.measure(List.of(faa), 3, Convention.CVTREE5, null, null).inputBytes())
                    .isEqualTo(FastaParser.maxParsedBytes(file.length, Convention.CVTREE5));
        } finally {
            java.nio.file.Files.delete(dir.resolve("x.faa"));
            java.nio.file.Files.delete(dir);
        }
    }

    @Provide
    Arbitrary<String> proteomes() {
        // Few distinct letters so that k-strings repeat; lower case, folds, others counting as A, stops, gaps and
        // blanks; proteins from 1 residue up, so some are shorter than K and reach it only doubled.
        Arbitrary<String> line = Arbitraries.strings().withChars("ACKWackwBUXZbuxzOJ*-1. \t").ofMinLength(0)
                .ofMaxLength(30);
        Arbitrary<String> protein = line.list().ofMinSize(1).ofMaxSize(3)
                .map(lines -> ">p\n" + String.join("\r\n", lines) + (lines.size() % 2 == 0 ? "*" : "") + "\n");
        return protein.list().ofMinSize(1).ofMaxSize(6).map(ps -> String.join("", ps));
    }

    private static boolean hasKString(String fasta, int k) {
        return Cvtree5Reference.genes(fasta).stream().anyMatch(g -> g.length() >= k);
    }

    /**
     * Asserts the builder's double-precision vector is the reference's, normalised, with an exact 0 where the
     * reference's value is a rounding residue of 0; returns the reference's.
     */
    private static Map<String, Double> assertEqualsReference(String fasta, int k) {
        Map<String, Double> reference = Cvtree5Reference.vector(Cvtree5Reference.genes(fasta), k);
        double norm = norm(reference);
        Exact v = exact(fasta, k);
        assertThat(v.values.keySet()).containsExactlyElementsOf(reference.keySet());
        for (Map.Entry<String, Double> e : reference.entrySet()) {
            if (Math.abs(e.getValue()) < ReferenceVector.ZERO) {
                assertThat(v.values.get(e.getKey())).as(e.getKey()).isZero();
            } else {
                assertThat(v.values.get(e.getKey())).as(e.getKey()).isCloseTo(e.getValue() / norm, within(EXACT));
            }
        }
        return reference;
    }

    private static double norm(Map<String, Double> v) {
        return Math.sqrt(v.values().stream().mapToDouble(x -> x * x).sum());
    }

    private static ByteBuffer parse(String text, Convention convention) {
        byte[] file = bytes(text);
        ByteBuffer out = ByteBuffer.allocate((int) FastaParser.maxParsedBytes(file.length, convention))
                .order(ByteOrder.LITTLE_ENDIAN);
        int n = new FastaParser(convention).parse("x.faa", direct(file), out);
        return out.limit(n);
    }

    private static ByteBuffer vector(String text, int k) {
        return vector(text, k, Convention.CVTREE5);
    }

    private static ByteBuffer vector(String text, int k, Convention convention) {
        ByteBuffer parsed = parse(text, convention);
        ByteBuffer out = ByteBuffer.allocate((int) CompositionVector.maxBytes(k, FastaParser.residueCount(parsed)))
                .order(ByteOrder.LITTLE_ENDIAN);
        int n = new CompositionVectorBuilder(k).build("x.faa", parsed, out, new CvWorkspace());
        return out.limit(n);
    }

    /** The builder's unit-length vector in double precision, before the float storage: key → value. */
    private record Exact(Map<String, Double> values) {
        double distance(Exact other) {
            double dot = 0;
            for (Map.Entry<String, Double> e : values.entrySet()) {
                Double b = other.values.get(e.getKey());
                if (b != null) {
                    dot += e.getValue() * b;
                }
            }
            return (1 - dot) / 2;
        }
    }

    private static Exact exact(String text, int k) {
        ByteBuffer parsed = parse(text, Convention.CVTREE5);
        ByteBuffer out = ByteBuffer.allocate((int) CompositionVector.maxBytes(k, FastaParser.residueCount(parsed)))
                .order(ByteOrder.LITTLE_ENDIAN);
        CvWorkspace ws = new CvWorkspace();
        new CompositionVectorBuilder(k).build("x.faa", parsed, out, ws);
        Map<String, Double> values = new TreeMap<>(); // TreeMap over letters: A < C < D ..., the key order
        for (int i = 0; i < CompositionVector.count(out); i++) {
            values.put(Alphabet.decode(ws.outKeys[i], k), ws.outValues[i] * ws.inverseNorm);
        }
        return new Exact(values);
    }
}
