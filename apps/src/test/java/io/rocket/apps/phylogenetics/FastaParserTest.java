package io.rocket.apps.phylogenetics;

import static io.rocket.apps.phylogenetics.Proteomes.bytes;
import static io.rocket.apps.phylogenetics.Proteomes.direct;
import static io.rocket.apps.phylogenetics.Proteomes.gzip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FastaParserTest {

    private final FastaParser parser = new FastaParser();

    private static ByteBuffer out(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void parse_twoProteins_writesDocumentedLayout() {
        ByteBuffer out = out(64);
        int bytes = parser.parse("a.faa", direct(bytes(">p1\nACD\n>p2\nWY\n")), out);

        assertThat(bytes).isEqualTo(8 + 5 + 2);
        assertThat(out.getInt(0)).isEqualTo(2);
        assertThat(out.getInt(4)).isEqualTo(5);
        byte[] stream = new byte[7];
        out.get(8, stream);
        assertThat(stream).containsExactly(0, 1, 2, -1, 18, 19, -1);
    }

    private static final String MESSY = "; a comment line ACDEF\r\n>sp|P1|X desc with ACGT letters\r\nac d\r\nEF*\r\n"
            + "\r\n>empty protein\r\n  >p3 header after blanks\r\n  kl-m1 \r\n\t; comment after a tab\r\n";

    /**
     * CVTree reads each line trimmed of blanks, tabs and CR, and counts every other character: the blank inside
     * "ac d" and the '-' and '1' inside "kl-m1" count as A; the '*' ending the first protein is dropped.
     */
    @Test
    void parse_cvtreeConvention_otherCharactersCountAsA() {
        ByteBuffer parsed = Proteomes.parse(bytes(MESSY));

        assertThat(Proteomes.residues(parsed)).isEqualTo("ACADEF|KLAMA|");
        assertThat(FastaParser.proteinCount(parsed)).isEqualTo(2);
        assertThat(FastaParser.residueCount(parsed)).isEqualTo(11);
    }

    @Test
    void parse_rocketConvention_lowerCaseCrlfStarsBlanksAndComments_sameAsCleanText() {
        ByteBuffer out = out(256);
        int bytes = new FastaParser(Convention.ROCKET).parse("m.faa", direct(bytes(MESSY)), out);
        ByteBuffer parsed = out.limit(bytes);

        assertThat(Proteomes.residues(parsed)).isEqualTo("ACDEF|KLM|");
        assertThat(FastaParser.proteinCount(parsed)).isEqualTo(2);
    }

    /** Only one '*' or '-' ending a protein is dropped; inside a protein, or before another, they count as A. */
    @Test
    void parse_cvtreeConvention_stopOnlyDroppedAtProteinEnd() {
        String text = ">a\nMK*\n*\n>b\nMK**\n>c\nM-K-\n>d\n*\n>e\nMK*  \n  \n>f\nM K *\nW  \nY\t \n>g\nM*-";

        assertThat(Proteomes.residues(Proteomes.parse(bytes(text))))
                .isEqualTo("MKA|MKA|MAK|MK|MAKAAWY|MA|");
    }

    @Test
    void parse_cvtreeConvention_digitsPunctuationAndInnerBlanksCountAsA() {
        ByteBuffer parsed = Proteomes.parse(bytes(">p\nM1.#>;\fK\tW\n"));

        assertThat(Proteomes.residues(parsed)).isEqualTo("MAAAAAAKAW|");
    }

    @Test
    void parse_cvtreeConvention_longBlankRunsAcrossChunks_keepEveryResidue() {
        StringBuilder text = new StringBuilder(">p\nM");
        text.append(" ".repeat(200_000)).append("K\n*".repeat(3)).append('\n');
        ByteBuffer parsed = Proteomes.parse(bytes(text.toString()));

        String residues = Proteomes.residues(parsed);
        assertThat(residues.length()).isEqualTo(1 + 200_000 + 5 + 1);
        assertThat(residues.substring(0, 4)).isEqualTo("MAAA");
        assertThat(residues.substring(residues.length() - 7)).isEqualTo("AKAKAK|");
        assertThat(residues.chars().filter(c -> c == 'A').count()).isEqualTo(200_000 + 2);
        assertThat(FastaParser.residueCount(parsed)).isEqualTo(1 + 200_000 + 5);
    }

    @Test
    void parse_utf8ByteOrderMark_skipped() {
        byte[] text = bytes("\u00ef\u00bb\u00bf>p1\nMKV\n");

        assertThat(Proteomes.residues(Proteomes.parse(text))).isEqualTo("MKV|");
    }

    @Test
    void parse_nonStandardLetters_mapLikeCvtree() {
        ByteBuffer parsed = Proteomes.parse(bytes(">p\nBUXZJO\n"));

        assertThat(Proteomes.residues(parsed)).isEqualTo("DCGEAA|");
    }

    @Test
    void parse_gzipAndPlain_identicalOutput() {
        byte[] plain = bytes(Proteomes.fasta("MKVLAAGIW", "PPQRSTY", "ACDEFGHIKLMNPQRSTVWY"));
        ByteBuffer a = Proteomes.parse(plain);
        ByteBuffer b = Proteomes.parse(gzip(plain));

        assertThat(b).isEqualTo(a);
    }

    @Test
    void parse_concatenatedGzipMembers_readsAll() {
        byte[] one = gzip(bytes(">p1\nAAAA\n"));
        byte[] two = gzip(bytes(">p2\nCCCC\n"));
        byte[] both = Arrays.copyOf(one, one.length + two.length);
        System.arraycopy(two, 0, both, one.length, two.length);

        assertThat(Proteomes.residues(Proteomes.parse(both))).isEqualTo("AAAA|CCCC|");
    }

    @Test
    void parse_inputStreamAndByteBuffer_identicalOutput() {
        byte[] file = gzip(bytes(Proteomes.fasta("MKVLAAGIW", "PPQRSTY")));
        ByteBuffer fromStream = out(64);
        int n = parser.parse("a.faa.gz", new ByteArrayInputStream(file), fromStream);

        assertThat(fromStream.limit(n)).isEqualTo(Proteomes.parse(file));
    }

    @Test
    void parse_longInputAcrossChunks_keepsEveryResidue() {
        StringBuilder sequence = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            sequence.append(Alphabet.letter(i % 20));
        }
        ByteBuffer parsed = Proteomes.parse(bytes(Proteomes.fasta(sequence.toString(), "WW")));

        assertThat(FastaParser.residueCount(parsed)).isEqualTo(200_002);
        assertThat(parsed.get(8 + 199_999)).isEqualTo((byte) 19);
        assertThat(parsed.get(8 + 200_000)).isEqualTo(FastaParser.SEPARATOR);
    }

    @Test
    void parse_atNonZeroPositions_leavesPositionsUnchanged() {
        ByteBuffer file = ByteBuffer.allocate(20);
        file.put(bytes("xxx>p\nAC\n")).flip().position(3);
        ByteBuffer out = out(40).position(10);

        int bytes = parser.parse("a.faa", file, out);

        assertThat(file.position()).isEqualTo(3);
        assertThat(out.position()).isEqualTo(10);
        assertThat(out.getInt(10)).isEqualTo(1);
        assertThat(out.getInt(14)).isEqualTo(2);
        assertThat(bytes).isEqualTo(11);
    }

    @Test
    void parse_emptyFile_throwsEmptyFile() {
        assertThatThrownBy(() -> parser.parse("e.faa", direct(new byte[0]), out(64)))
                .isInstanceOf(FastaFormatException.class).hasMessage("e.faa: empty file");
        assertThatThrownBy(() -> parser.parse("e.faa.gz", direct(gzip(new byte[0])), out(64)))
                .isInstanceOf(FastaFormatException.class).hasMessage("e.faa.gz: empty file");
    }

    @Test
    void parse_headersOnly_throwsNoResidues() {
        assertThatThrownBy(() -> parser.parse("h.faa", direct(bytes(">p1\n>p2\n\n")), out(64)))
                .isInstanceOf(FastaFormatException.class).hasMessageStartingWith("h.faa: no protein residues");
    }

    @Test
    void parse_nulBytes_throwsBinary() {
        byte[] file = bytes(">p1\nACD\n");
        file[5] = 0;
        assertThatThrownBy(() -> parser.parse("b.faa", direct(file), out(64)))
                .isInstanceOf(FastaFormatException.class)
                .hasMessage("b.faa: binary data, not FASTA text (byte 0x00 at text offset 5)");
    }

    @Test
    void parse_pngFile_throwsBinary() {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13};
        assertThatThrownBy(() -> parser.parse("photo.png", direct(png), out(64)))
                .isInstanceOf(FastaFormatException.class).hasMessageContaining("binary data");
    }

    @Test
    void parse_plainTextWithoutHeader_throwsNotFasta() {
        assertThatThrownBy(() -> parser.parse("readme.txt", direct(bytes("Hello world\n")), out(64)))
                .isInstanceOf(FastaFormatException.class)
                .hasMessageContaining("readme.txt: not FASTA: sequence letter 'H' at byte 0");
    }

    @Test
    void parse_corruptGzip_throwsCorrupt() {
        byte[] file = gzip(bytes(Proteomes.fasta("MKVLAAGIWMKVLAAGIW")));
        for (int i = 12; i < file.length - 8; i++) {
            file[i] = (byte) 0xff;
        }
        assertThatThrownBy(() -> parser.parse("c.faa.gz", direct(file), out(256)))
                .isInstanceOf(FastaFormatException.class).hasMessageStartingWith("c.faa.gz: corrupt gzip data");
    }

    @Test
    void parse_truncatedGzip_throwsTruncated() {
        byte[] file = gzip(bytes(Proteomes.fasta("MKVLAAGIWMKVLAAGIW", "ACDEFGHIK")));
        byte[] cut = Arrays.copyOf(file, file.length / 2);
        assertThatThrownBy(() -> parser.parse("t.faa.gz", direct(cut), out(256)))
                .isInstanceOf(FastaFormatException.class).hasMessage("t.faa.gz: truncated gzip data");
    }

    @Test
    void parse_outputTooSmall_reportsExactSize() {
        byte[] file = bytes(Proteomes.fasta("ACDEFGHIKL", "MNPQRSTVWY", "AAAAA"));
        ByteBuffer small = out(16);
        assertThatThrownBy(() -> parser.parse("big.faa", direct(file), small))
                .isInstanceOf(BufferTooSmallException.class)
                .hasMessage("big.faa: parsed proteome (3 proteins, 25 residues) needs 36 bytes but the output buffer"
                        + " holds only 16 bytes; raise the slot size")
                .satisfies(e -> assertThat(((BufferTooSmallException) e).requiredBytes()).isEqualTo(36));
    }

    @Test
    void maxParsedBytes_boundsEveryOutput() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        text.writeBytes(bytes(">a\nA\n>b\nC"));
        byte[] file = text.toByteArray();
        ByteBuffer out = out((int) FastaParser.maxParsedBytes(file.length));

        assertThat(parser.parse("m.faa", direct(file), out)).isLessThanOrEqualTo(out.capacity());
    }
}
