package io.rocket.apps.phylogenetics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

/** Test helpers: FASTA text, gzip, parsing and vector building into little-endian buffers as the runtime does. */
final class Proteomes {

    private Proteomes() {
    }

    /** FASTA text with one protein per sequence, headers {@code >p1 ...}. */
    static String fasta(String... sequences) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < sequences.length; i++) {
            out.append(">p").append(i + 1).append(" test protein\n").append(sequences[i]).append('\n');
        }
        return out.toString();
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    static byte[] gzip(byte[] plain) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(plain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static ByteBuffer direct(byte[] content) {
        return ByteBuffer.allocateDirect(content.length).order(ByteOrder.LITTLE_ENDIAN).put(content).flip();
    }

    static ByteBuffer parse(byte[] file) {
        ByteBuffer out = ByteBuffer.allocateDirect((int) FastaParser.maxParsedBytes(64L * file.length + 64))
                .order(ByteOrder.LITTLE_ENDIAN);
        int bytes = new FastaParser().parse("test.faa", direct(file), out);
        return out.limit(bytes);
    }

    static ByteBuffer vector(byte[] file, int k) {
        ByteBuffer parsed = parse(file);
        ByteBuffer out = ByteBuffer.allocateDirect(
                (int) CompositionVector.maxBytes(k, FastaParser.residueCount(parsed))).order(ByteOrder.LITTLE_ENDIAN);
        int bytes = new CompositionVectorBuilder(k).build("test.faa", parsed, out, new CvWorkspace());
        return out.limit(bytes);
    }

    /** The residue stream of a parsed item as letters, proteins separated by '|'. */
    static String residues(ByteBuffer parsed) {
        StringBuilder out = new StringBuilder();
        int base = parsed.position();
        int length = FastaParser.residueCount(parsed) + FastaParser.proteinCount(parsed);
        for (int i = 0; i < length; i++) {
            byte b = parsed.get(base + FastaParser.HEADER_BYTES + i);
            out.append(b == FastaParser.SEPARATOR ? '|' : Alphabet.letter(b));
        }
        return out.toString();
    }
}
