package io.rocket.apps.phylogenetics;

import static io.rocket.apps.phylogenetics.Proteomes.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.SortedMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class CompositionVectorBuilderTest {

    /**
     * Proteins AACA and CC, K = 3. Counts: n(AAC) = n(ACA) = 1, N3 = 2; n(AA) = n(AC) = n(CA) = n(CC) = 1, N2 = 4;
     * n(A) = n(C) = 3, N1 = 6; factor N3·N1/N2² = 0.75, so every n0 = 1·1/3·0.75 = 0.25. Entries are p·c for the
     * four 2-strings p whose suffix extends to a 2-string: AAA, AAC, ACA, ACC, CAA, CAC, CCA, CCC. AAC and ACA occur
     * once: a = (1 − 0.25)/0.25 = 3; the other six never occur: a = −1 (ACC and CCA would occur if strings spanned
     * the two proteins). Unit length divides by √(2·9 + 6) = √24.
     */
    @Test
    void build_tinyProteome_matchesHandComputedVector() {
        ByteBuffer v = Proteomes.vector(bytes(">p1 first\r\naaca\r\n>p2\r\nCC*\r\n"), 3);

        String[] expectedStrings = {"AAA", "AAC", "ACA", "ACC", "CAA", "CAC", "CCA", "CCC"};
        double[] expectedRaw = {-1, 3, 3, -1, -1, -1, -1, -1};
        assertThat(CompositionVector.count(v)).isEqualTo(8);
        assertThat(CompositionVector.k(v)).isEqualTo(3);
        for (int i = 0; i < 8; i++) {
            assertThat(CompositionVector.key(v, i)).isEqualTo(Alphabet.encode(expectedStrings[i]));
            assertThat(CompositionVector.value(v, i)).isCloseTo((float) (expectedRaw[i] / Math.sqrt(24)),
                    within(1e-6f));
        }
    }

    @Test
    void build_ambiguityLetters_sameVectorAsMappedLetters() {
        ByteBuffer folded = Proteomes.vector(bytes(Proteomes.fasta("MBUXZKJOLBUX", "zxubWWB")), 3);
        ByteBuffer mapped = Proteomes.vector(bytes(Proteomes.fasta("MDCGEKAALDCG", "EGCDWWD")), 3);

        assertThat(folded).isEqualTo(mapped);
    }

    @Test
    void build_gzipAndPlainInput_identicalVectors() {
        byte[] plain = bytes(Proteomes.fasta("MKVLAAGIWKKLLPPAGAGW", "PPQRSTYMKVLAAG", "ACDEFGHIKLMNPQRSTVWY"));

        assertThat(Proteomes.vector(Proteomes.gzip(plain), 4)).isEqualTo(Proteomes.vector(plain, 4));
    }

    @Test
    void build_result_isUnitLengthWithAscendingKeys() {
        ByteBuffer v = Proteomes.vector(bytes(Proteomes.fasta(randomProtein(3000, 7), randomProtein(800, 8))), 5);
        double sum = 0;
        for (int i = 0; i < CompositionVector.count(v); i++) {
            sum += (double) CompositionVector.value(v, i) * CompositionVector.value(v, i);
            if (i > 0) {
                assertThat(CompositionVector.key(v, i)).isGreaterThan(CompositionVector.key(v, i - 1));
            }
        }
        assertThat(sum).isCloseTo(1.0, within(1e-5));
    }

    @Property(tries = 60)
    void build_randomProteomes_matchesReferenceImplementation(@ForAll("proteomes") List<String> proteins,
                                                              @ForAll @IntRange(min = 3, max = 5) int k) {
        byte[] text = bytes(Proteomes.fasta(proteins.toArray(String[]::new)));
        if (ReferenceVector.isZero(ReferenceVector.raw(proteins, k).values())) {
            assertThatThrownBy(() -> Proteomes.vector(text, k)).isInstanceOf(FastaFormatException.class)
                    .hasMessageContaining("every composition-vector entry is zero at K = " + k);
            return;
        }
        SortedMap<Long, Double> expected = ReferenceVector.normalised(proteins, k);
        ByteBuffer v = Proteomes.vector(text, k);

        assertThat(CompositionVector.count(v)).isEqualTo(expected.size());
        int i = 0;
        for (var entry : expected.entrySet()) {
            assertThat((long) CompositionVector.key(v, i)).isEqualTo(entry.getKey());
            assertThat((double) CompositionVector.value(v, i)).isCloseTo(entry.getValue(), within(1e-6));
            i++;
        }
    }

    @Provide
    Arbitrary<List<String>> proteomes() {
        // A four-letter sub-alphabet makes k-strings repeat, so counts above one and the −1 entries both occur.
        Arbitrary<String> protein = Arbitraries.strings().withChars('A', 'C', 'K', 'W').ofMinLength(1).ofMaxLength(60);
        return protein.list().ofMinSize(1).ofMaxSize(8).filter(list -> list.stream().anyMatch(p -> p.length() >= 5));
    }

    @Test
    void build_workspaceReused_sameResultAsFresh() {
        CompositionVectorBuilder builder = new CompositionVectorBuilder(4);
        CvWorkspace shared = new CvWorkspace();
        ByteBuffer big = Proteomes.parse(bytes(Proteomes.fasta(randomProtein(5000, 1))));
        ByteBuffer small = Proteomes.parse(bytes(Proteomes.fasta(randomProtein(300, 2), randomProtein(40, 3))));
        ByteBuffer out = ByteBuffer.allocate(1 << 22).order(ByteOrder.LITTLE_ENDIAN);
        builder.build("big", big, out, shared);
        int n = builder.build("small", small, out, shared);

        assertThat(out.limit(n)).isEqualTo(Proteomes.vector(bytes(Proteomes.fasta(randomProtein(300, 2),
                randomProtein(40, 3))), 4));
    }

    @Test
    void build_outputTooSmall_throwsWithExactSize() {
        ByteBuffer parsed = Proteomes.parse(bytes(">p1\naaca\n>p2\nCC\n"));
        ByteBuffer out = ByteBuffer.allocate(40).order(ByteOrder.LITTLE_ENDIAN);

        assertThatThrownBy(() -> new CompositionVectorBuilder(3).build("x.faa", parsed, out, new CvWorkspace()))
                .isInstanceOf(BufferTooSmallException.class)
                .hasMessageContaining("x.faa: composition vector (K = 3, 8 entries) needs 72 bytes")
                .hasMessageContaining("holds only 40 bytes");
    }

    @Test
    void build_allProteinsShorterThanK_throwsNamingItem() {
        ByteBuffer parsed = Proteomes.parse(bytes(Proteomes.fasta("ACDE", "KLM")));

        assertThatThrownBy(() -> new CompositionVectorBuilder(5).build("short.faa", parsed,
                ByteBuffer.allocate(1024), new CvWorkspace()))
                .isInstanceOf(FastaFormatException.class)
                .hasMessage("short.faa: no protein is at least K = 5 residues long");
    }

    /**
     * Proteins of one repeated residue: at every K the only entry is A…A, and n(A…A) = Σ(L − K + 1) = N_K is exactly
     * its background n(A^(K−1))²/n(A^(K−2)) · N_K·N_{K−2}/N_{K−1}² = N_K, so a = 0 and the vector has no direction:
     * the item fails, naming itself. In double the formula leaves a residue (here −1.1e-16 at K = 4 for 8 residues),
     * which scaling to unit length used to turn into the vector (−1).
     */
    @Test
    void build_oneRepeatedResidue_everyEntryZero_throwsNamingItem() {
        for (int k = 3; k <= 7; k++) {
            int order = k;
            ByteBuffer parsed = Proteomes.parse(bytes(Proteomes.fasta("AAAAAAAA", "AAAAAAAAAAAAA", "AAAAAAA")));
            assertThatThrownBy(() -> new CompositionVectorBuilder(order).build("poly.faa", parsed,
                    ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN), new CvWorkspace()))
                    .as("K = %d", k)
                    .isInstanceOf(FastaFormatException.class)
                    .hasMessage("poly.faa: every composition-vector entry is zero at K = " + k + ": each K-string"
                            + " occurs exactly as often as its Markov background predicts (as in a protein of one"
                            + " repeated residue), so the distances to this proteome are undefined");
        }
        double factor = 5.0 * 7 / (6.0 * 6); // AAAAAAAA at K = 4: N_4 = 5, N_3 = 6, N_2 = 7; n(AAA) = 6, n(AA) = 7
        assertThat(5 * (7 / (6 * factor) * (1.0 / 6)) - 1.0).isNotZero().isCloseTo(0.0, within(1e-15));
        assertThat(CompositionVectorBuilder.countsAsExpected(5, 7, 6, 6, 6 * 6, 5 * 7)).isTrue();
    }

    /** The integer test of n(s) = n0(s) compares the two sides as exact 128-bit products. */
    @Test
    void countsAsExpected_largeCounts_exact128BitComparison() {
        long big = Integer.MAX_VALUE; // 2^31 − 1, above every count
        assertThat(CompositionVectorBuilder.countsAsExpected(big, big, big, big, big * big, big * big)).isTrue();
        assertThat(CompositionVectorBuilder.countsAsExpected(big, big, big, big - 1, big * big, big * big))
                .isFalse();
        // 2^64 on both sides: the low words are 0, the high words 1
        assertThat(CompositionVectorBuilder.countsAsExpected(1, 1L << 30, 1L << 15, 1L << 15, 1L << 34, 1L << 34))
                .isTrue();
        // 2^64 against 2^65: equal low words (0), different high words
        assertThat(CompositionVectorBuilder.countsAsExpected(1, 1L << 30, 1L << 15, 1L << 15, 1L << 34, 1L << 35))
                .isFalse();
        // 2^64 against 2^64 + 2^30: equal high words (1), different low words
        assertThat(CompositionVectorBuilder.countsAsExpected(1, 1L << 30, 1, 1L << 30, 1L << 34, (1L << 34) + 1))
                .isFalse();
    }

    @Test
    void constructor_unsupportedK_throws() {
        assertThatThrownBy(() -> new CompositionVectorBuilder(2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CompositionVectorBuilder(8)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void build_k7_keysAboveTwoToThe28Work() {
        String protein = "WYWYWYWYWVWY" + randomProtein(200, 4);
        ByteBuffer v = Proteomes.vector(bytes(Proteomes.fasta(protein)), 7);
        SortedMap<Long, Double> expected = ReferenceVector.normalised(List.of(protein), 7);

        assertThat(CompositionVector.count(v)).isEqualTo(expected.size());
        assertThat((long) CompositionVector.key(v, CompositionVector.count(v) - 1)).isEqualTo(expected.lastKey());
    }

    @Test
    void maxBytes_boundsActualSize() {
        for (int k = 3; k <= 6; k++) {
            ByteBuffer v = Proteomes.vector(bytes(Proteomes.fasta(randomProtein(2000, k))), k);
            assertThat(CompositionVector.bytesFor(CompositionVector.count(v)))
                    .isLessThanOrEqualTo(CompositionVector.maxBytes(k, 2000));
        }
    }

    static String randomProtein(int length, long seed) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < length; i++) {
            s.append(Alphabet.letter(AminoAcidFrequencies.sample(random)));
        }
        return s.toString();
    }
}
