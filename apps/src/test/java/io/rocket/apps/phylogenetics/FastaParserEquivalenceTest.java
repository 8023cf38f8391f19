package io.rocket.apps.phylogenetics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FastaParser} against {@link PreviousFastaParser}, the byte-at-a-time parser it replaced: the same parsed
 * bytes, the same return value and the same exception (class and message) for generated proteomes and for random
 * texts full of what the format allows and what it rejects, in every convention, plain and gzip, with outputs large
 * enough and too small.
 */
class FastaParserEquivalenceTest {

    private static final Convention[] CONVENTIONS = Convention.values();

    @Test
    void generatedProteome_sameBytesAsBefore(@TempDir Path dir) throws IOException {
        PhyloGenerator.Result generated = PhyloGenerator.generate(dir, 2, 0.5, 400, 3);
        byte[] gz = Files.readAllBytes(generated.proteomes().get(0));
        byte[] plain;
        try (InputStream in = new java.util.zip.GZIPInputStream(new ByteArrayInputStream(gz))) {
            plain = in.readAllBytes();
        }
        for (Convention convention : CONVENTIONS) {
            int size = (int) FastaParser.maxParsedBytes(plain.length, convention);
            assertSame(gz, convention, size);
            assertSame(plain, convention, size);
            assertSame(crlf(plain), convention, size);
            assertSame(lowerCase(plain), convention, size);
        }
    }

    @Test
    void randomTexts_sameBytesOrSameErrorAsBefore() {
        SplittableRandom random = new SplittableRandom(43);
        for (int t = 0; t < 3000; t++) {
            byte[] text = randomText(random, t % 50 == 0 ? 200_000 : 3_000);
            Convention convention = CONVENTIONS[t % CONVENTIONS.length];
            int fits = (int) FastaParser.maxParsedBytes(text.length, convention);
            assertSame(text, convention, fits);
            // Too small (or barely large enough): the same exact size in the same message.
            assertSame(text, convention, random.nextInt(fits + 1));
            if (t % 10 == 0) {
                assertSame(Proteomes.gzip(text), convention, fits);
            }
        }
    }

    /** Long proteins and blank runs that cross the parser's 64 KiB chunks and its staging buffer. */
    @Test
    void longProteinsAcrossChunks_sameBytesAsBefore() {
        SplittableRandom random = new SplittableRandom(7);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        for (int p = 0; p < 6; p++) {
            text.writeBytes(Proteomes.bytes(">long " + p + "\n"));
            int length = 50_000 + random.nextInt(300_000);
            for (int i = 0; i < length; i++) {
                text.write(i % 997 == 996 ? '\n' : Alphabet.letter(random.nextInt(20)));
            }
            text.writeBytes(Proteomes.bytes(p == 2 ? " ".repeat(140_000) + "W\n*\n" : "\n"));
        }
        byte[] file = text.toByteArray();
        for (Convention convention : CONVENTIONS) {
            int fits = (int) FastaParser.maxParsedBytes(file.length, convention);
            assertSame(file, convention, fits);
            assertSame(file, convention, fits / 3);
            assertSame(file, convention, fits / 2 + 5);
        }
    }

    private static void assertSame(byte[] file, Convention convention, int capacity) {
        Outcome before = outcome(file, convention, capacity, true);
        Outcome after = outcome(file, convention, capacity, false);
        assertThat(after.error).as("error, %s, capacity %d", convention, capacity).isEqualTo(before.error);
        assertThat(after.bytes).as("bytes written, %s", convention).isEqualTo(before.bytes);
        if (before.error == null) {
            assertThat(after.out).as("parsed item, %s", convention).isEqualTo(before.out);
        }
        // The stream entry point reads the same way.
        ByteBuffer out = ByteBuffer.allocate(capacity + 3).order(ByteOrder.LITTLE_ENDIAN);
        out.position(3);
        String streamError = null;
        int bytes = -1;
        try {
            bytes = new FastaParser(convention).parse("t.faa", new ByteArrayInputStream(file), out);
        } catch (RuntimeException e) {
            streamError = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        assertThat(streamError).isEqualTo(before.error);
        assertThat(bytes).isEqualTo(before.bytes);
    }

    private record Outcome(String error, int bytes, ByteBuffer out) {
    }

    private static Outcome outcome(byte[] file, Convention convention, int capacity, boolean previous) {
        ByteBuffer in = ByteBuffer.allocateDirect(file.length + 2).put(new byte[] {9, 9}).put(file).flip().position(2);
        ByteBuffer out = ByteBuffer.allocateDirect(capacity + 3).order(ByteOrder.LITTLE_ENDIAN);
        out.position(3);
        try {
            int bytes = previous ? new PreviousFastaParser(convention).parse("t.faa", in, out)
                    : new FastaParser(convention).parse("t.faa", in, out);
            return new Outcome(null, bytes, out.clear());
        } catch (RuntimeException e) {
            return new Outcome(e.getClass().getSimpleName() + ": " + e.getMessage(), -1, null);
        }
    }

    /**
     * A FASTA-like text: headers with odd content, comments, residue lines in either case with blanks, tabs, CR,
     * digits, '*' and '-' anywhere, blank lines, empty proteins, sometimes text before the first header, a byte-order
     * mark, a last line without newline, and rarely a byte that is not text.
     */
    private static byte[] randomText(SplittableRandom random, int approximateBytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean crlf = random.nextInt(4) == 0;
        if (random.nextInt(20) == 0) {
            out.writeBytes(new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf});
        }
        if (random.nextInt(10) == 0) {
            out.writeBytes(Proteomes.bytes(random.nextBoolean() ? "; preamble\n  \n" : "123 *-\n"));
        }
        if (random.nextInt(40) == 0) {
            out.writeBytes(Proteomes.bytes("MKV\n")); // a letter before any header
        }
        String odd = " \t>;*-|\r0123456789=[]{}.,\u00e9\u00ff";
        boolean first = true;
        while (out.size() < approximateBytes) {
            int kind = first ? 0 : random.nextInt(20);
            first = false;
            if (kind < 3) {
                StringBuilder header = new StringBuilder(random.nextInt(3) == 0 ? "  >" : ">");
                int length = random.nextInt(40);
                for (int i = 0; i < length; i++) {
                    header.append(random.nextInt(4) == 0 ? odd.charAt(random.nextInt(odd.length()))
                            : (char) ('A' + random.nextInt(58)));
                }
                out.writeBytes(Proteomes.bytes(header.toString()));
            } else if (kind == 3) {
                out.writeBytes(Proteomes.bytes(random.nextBoolean() ? "; comment ACD" : "\t;x"));
            } else if (kind == 4) {
                out.writeBytes(Proteomes.bytes(random.nextBoolean() ? "" : " \t "));
            } else {
                int length = 1 + random.nextInt(80);
                for (int i = 0; i < length; i++) {
                    int r = random.nextInt(100);
                    char c;
                    if (r < 80) {
                        c = "ACDEFGHIKLMNPQRSTVWYBUXZJO".charAt(random.nextInt(r < 70 ? 20 : 26));
                        c = random.nextInt(5) == 0 ? Character.toLowerCase(c) : c;
                    } else {
                        String other = " \t*-*-1.#>;\f\u000b";
                        c = other.charAt(random.nextInt(other.length()));
                    }
                    out.write(c);
                }
                if (random.nextInt(6) == 0) {
                    out.writeBytes(Proteomes.bytes(random.nextBoolean() ? "*" : "- \t"));
                }
            }
            if (random.nextInt(400) == 0) {
                out.write(random.nextBoolean() ? 0 : random.nextBoolean() ? 0x01 : 0x90); // not text
            }
            out.writeBytes(Proteomes.bytes(crlf ? "\r\n" : "\n"));
        }
        byte[] text = out.toByteArray();
        if (random.nextInt(3) == 0) { // the last line without its newline
            return java.util.Arrays.copyOf(text, text.length - (crlf ? 2 : 1));
        }
        return text;
    }

    private static byte[] crlf(byte[] text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte b : text) {
            if (b == '\n') {
                out.write('\r');
            }
            out.write(b);
        }
        return out.toByteArray();
    }

    private static byte[] lowerCase(byte[] text) {
        byte[] lower = text.clone();
        for (int i = 0; i < lower.length; i++) {
            if (lower[i] >= 'A' && lower[i] <= 'Z') {
                lower[i] += 'a' - 'A';
            }
        }
        return lower;
    }
}
