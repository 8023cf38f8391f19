package io.rocket.apps.phylogenetics;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * {@link FastaParser} as it was before its fast paths (issue 43), reading every byte through one state machine, kept
 * unchanged as the reference that {@link FastaParserEquivalenceTest} holds the fast parser to and as the baseline of
 * {@link FastaParseBench}. Its documentation follows as it was.
 *
 * <p>Streaming reader of protein FASTA (plain or gzip) into the "parsed item" layout, the input of
 * {@link CompositionVectorBuilder}.
 *
 * <p>Gzip is recognised by its magic bytes {@code 1f 8b}, never by the file name; concatenated gzip members
 * (bgzip) are read in full. The text is scanned in 64 KiB chunks and residue codes go straight into the output
 * buffer, so nothing but the output is ever as large as the file. Lines are read as CVTree reads them: blanks, tabs
 * and CR at either end of a line are trimmed; then a line starting with {@code >} is a header and starts a
 * protein, one starting with {@code ;} is a comment, and any other line continues the current protein. Letters map
 * to codes 0..19 through {@link Alphabet} (lower case, CVTree folds). Other characters depend on the
 * {@link Convention}: with {@link Convention#CVTREE} (the default) and {@link Convention#CVTREE5} each counts as A,
 * except one {@code *} or {@code -} ending a protein, which is dropped; with {@link Convention#ROCKET} they are
 * skipped. With {@link Convention#CVTREE5} every protein is then written twice in a row (s + s, see
 * {@link Convention#repeatsProteins}), so the builder and the GPU kernel count CVTree 5's k-strings, seam included,
 * with no convention of their own. A leading UTF-8
 * byte-order mark is skipped. Proteins without residues are dropped. Text before the first header is ignored, but
 * a letter there means the file is not FASTA.
 *
 * <p>Parsed layout, written at the output buffer's position in the buffer's own byte order (the caller sets
 * little-endian); neither buffer's position is changed:
 * <pre>
 *   offset 0   int   proteinCount   proteins with at least one residue
 *   offset 4   int   residueCount   residues over all proteins (both copies with CVTREE5)
 *   offset 8   byte  stream[residueCount + proteinCount]
 *                    each protein's residue codes (0..19), twice in a row with CVTREE5, followed by
 *                    SEPARATOR (0xFF)
 * </pre>
 * Size: {@code 8 + residueCount + proteins}, at most {@link #maxParsedBytes(long, Convention)} of the uncompressed
 * text size.
 *
 * <p>Errors are {@link FastaFormatException}s naming the item: empty file, corrupt or truncated gzip, binary
 * data (NUL, control characters, or bytes ≥ 0x80 outside headers), sequence letters before the first header,
 * no residues at all. An output that does not fit raises {@link BufferTooSmallException} with the exact size
 * needed. An instance holds reusable scratch chunks: use one per thread.
 */
final class PreviousFastaParser {

    /** Bytes before the residue stream. */
    public static final int HEADER_BYTES = 8;

    /** Byte that ends every protein in the residue stream. */
    public static final byte SEPARATOR = (byte) 0xFF;

    private static final int CHUNK = 1 << 16;

    private final Convention convention;
    private final byte[] chunk = new byte[CHUNK];
    private final byte[] staged = new byte[2 * CHUNK];

    /** A parser with CVTree's reading of the text ({@link Convention#CVTREE}). */
    PreviousFastaParser() {
        this(Convention.CVTREE);
    }

    /** A parser with the given reading of the text. */
    PreviousFastaParser(Convention convention) {
        this.convention = java.util.Objects.requireNonNull(convention, "convention");
    }

    /** How this parser reads sequence lines. */
    public Convention convention() {
        return convention;
    }

    /**
     * Parses the remaining bytes of {@code fileBytes} (a whole file, plain or gzip) into {@code out}.
     *
     * @return bytes written at {@code out.position()}
     */
    public int parse(String source, ByteBuffer fileBytes, ByteBuffer out) {
        int start = fileBytes.position();
        boolean gzip = fileBytes.remaining() >= 2
                && (fileBytes.get(start) & 0xff) == 0x1f && (fileBytes.get(start + 1) & 0xff) == 0x8b;
        return parse(source, new ByteBufferInputStream(fileBytes), gzip, out);
    }

    /**
     * Parses a whole file read from {@code in} (plain or gzip, detected from its first bytes) into {@code out}.
     * The stream is read to its end but not closed.
     *
     * @return bytes written at {@code out.position()}
     */
    public int parse(String source, InputStream in, ByteBuffer out) {
        PushbackInputStream pushback = new PushbackInputStream(in, 2);
        byte[] magic = new byte[2];
        int n;
        try {
            n = pushback.readNBytes(magic, 0, 2);
            pushback.unread(magic, 0, n);
        } catch (IOException e) {
            throw new FastaFormatException(source, "read failed: " + e.getMessage(), e);
        }
        boolean gzip = n == 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b;
        return parse(source, pushback, gzip, out);
    }

    /** Upper bound of the parsed size for a FASTA text of {@code textBytes} uncompressed bytes, read as CVTree. */
    public static long maxParsedBytes(long textBytes) {
        return maxParsedBytes(textBytes, Convention.CVTREE);
    }

    /** Upper bound of the parsed size for a FASTA text of {@code textBytes} uncompressed bytes. */
    public static long maxParsedBytes(long textBytes, Convention convention) {
        // Every residue is one text byte, and every separator replaces at least the '>' of the next header
        // (the last protein's separator may stand for nothing, hence the +1). A repeated protein writes each of
        // its residues once more.
        return HEADER_BYTES + (convention.repeatsProteins() ? 2 * textBytes : textBytes) + 1;
    }

    /**
     * Upper bound of the parsed size for proteomes of at most {@code residues} residues (as the text reads them, each
     * protein once): every protein adds a separator, and has at least one residue.
     */
    public static long maxParsedBytesForResidues(long residues, Convention convention) {
        return HEADER_BYTES + (convention.repeatsProteins() ? 3 : 2) * residues;
    }

    /**
     * The inverse of {@link #maxParsedBytesForResidues}: a residue count whose bound holds a parsed item of
     * {@code parsedBytes}; it is also at least the item's residueCount, so a vector bound from it holds.
     */
    public static long residuesForParsedBytes(long parsedBytes, Convention convention) {
        long stream = Math.max(0, parsedBytes - HEADER_BYTES);
        // With repeats the stream is 2r + p bytes (p ≤ r proteins): r ≤ stream/2 and 3·ceil(stream/2) ≥ stream.
        return convention.repeatsProteins() ? (stream + 1) / 2 : stream;
    }

    /** Number of proteins in a parsed item starting at {@code parsed.position()}. */
    public static int proteinCount(ByteBuffer parsed) {
        return parsed.getInt(parsed.position());
    }

    /** Number of residues in a parsed item starting at {@code parsed.position()}. */
    public static int residueCount(ByteBuffer parsed) {
        return parsed.getInt(parsed.position() + 4);
    }

    private int parse(String source, InputStream raw, boolean gzip, ByteBuffer out) {
        if (!gzip) {
            return scan(source, raw, out);
        }
        try (GZIPInputStream text = new GZIPInputStream(raw, CHUNK)) {
            return scan(source, text, out);
        } catch (ZipException e) {
            throw new FastaFormatException(source, "corrupt gzip data (" + e.getMessage() + ")", e);
        } catch (EOFException e) {
            throw new FastaFormatException(source, "truncated gzip data", e);
        } catch (IOException e) {
            throw new FastaFormatException(source, "gzip read failed: " + e.getMessage(), e);
        }
    }

    private int scan(String source, InputStream text, ByteBuffer out) {
        final boolean cvtree = convention.countsOtherCharactersAsA();
        final int base = out.position();
        final long capacity = out.limit() - base;
        final byte[] buf = chunk;
        final byte[] codes = staged;
        long writePos = HEADER_BYTES;
        long textOffset = 0;
        long residues = 0;
        long proteins = 0;
        int proteinLength = 0;
        boolean lineStart = true; // nothing but blanks so far on this line
        boolean skipLine = false;
        boolean seenHeader = false;
        // CVTree convention: a '*' or '-' counts as A unless it ends its protein, and a blank inside a line counts
        // as A when something other than blanks follows on the line; both wait here until that is known.
        boolean pendingStop = false;
        long pendingBlanks = 0;
        // Codes staged for the output. Every byte of a chunk stages at most one code, so when a chunk starts with
        // room for CHUNK codes none of its bytes needs a check; only waiting codes (any number) are checked.
        int w = 0;
        int n;
        while ((n = read(source, text, buf)) > 0) {
            if (w > codes.length - CHUNK) {
                writePos = flush(out, base, capacity, writePos, codes, w);
                w = 0;
            }
            int i = 0;
            if (textOffset == 0 && n >= 3 && (buf[0] & 0xff) == 0xef && (buf[1] & 0xff) == 0xbb
                    && (buf[2] & 0xff) == 0xbf) {
                i = 3; // a UTF-8 byte-order mark, as some Windows tools write
            }
            for (; i < n; i++) {
                int b = buf[i] & 0xff;
                byte cls = Alphabet.classOf(b);
                if (skipLine) {
                    if (cls == Alphabet.NEWLINE) {
                        skipLine = false;
                        lineStart = true;
                    } else if (cls == Alphabet.JUNK && b < 0x80) {
                        throw binary(source, textOffset + i, b);
                    }
                    continue;
                }
                if (cls < Alphabet.SIZE) {
                    if (!seenHeader) {
                        throw new FastaFormatException(source, "not FASTA: sequence letter '" + (char) b
                                + "' at byte " + (textOffset + i) + " before the first '>' header");
                    }
                    if (pendingStop || pendingBlanks != 0) {
                        long waiting = pendingBlanks + (pendingStop ? 1 : 0);
                        pendingStop = false;
                        pendingBlanks = 0;
                        proteinLength = addLength(source, proteinLength, waiting);
                        for (long t = 0; t < waiting; t++) {
                            if (w == codes.length) {
                                writePos = flush(out, base, capacity, writePos, codes, w);
                                w = 0;
                            }
                            codes[w++] = 0;
                        }
                        if (w > codes.length - CHUNK) {
                            writePos = flush(out, base, capacity, writePos, codes, w);
                            w = 0;
                        }
                    }
                    codes[w++] = cls;
                    proteinLength++;
                    lineStart = false;
                } else if (cls == Alphabet.NEWLINE) {
                    lineStart = true;
                    pendingBlanks = 0; // trailing blanks are trimmed
                } else if (cls == Alphabet.BLANK) {
                    if (cvtree && !lineStart && seenHeader) {
                        pendingBlanks++;
                    }
                } else if (cls == Alphabet.HEADER && lineStart) {
                    pendingStop = false; // one '*' or '-' ending a protein is dropped
                    if (proteinLength > 0) {
                        codes[w++] = SEPARATOR;
                        residues += proteinLength;
                        proteins++;
                        proteinLength = 0;
                    }
                    seenHeader = true;
                    skipLine = true;
                } else if (cls == Alphabet.COMMENT && lineStart) {
                    skipLine = true;
                } else if (cls == Alphabet.JUNK) {
                    throw binary(source, textOffset + i, b);
                } else {
                    // any other printable character, '>' and ';' inside a line included
                    lineStart = false;
                    if (cvtree && seenHeader) {
                        // Counts as A: first whatever waits before it, then itself (a '*' or '-' waits in turn).
                        long waiting = pendingBlanks + (pendingStop ? 1 : 0);
                        pendingStop = b == '*' || b == '-';
                        pendingBlanks = 0;
                        if (waiting != 0) {
                            proteinLength = addLength(source, proteinLength, waiting);
                            for (long t = 0; t < waiting; t++) {
                                if (w == codes.length) {
                                    writePos = flush(out, base, capacity, writePos, codes, w);
                                    w = 0;
                                }
                                codes[w++] = 0;
                            }
                            if (w > codes.length - CHUNK) {
                                writePos = flush(out, base, capacity, writePos, codes, w);
                                w = 0;
                            }
                        }
                        if (!pendingStop) {
                            codes[w++] = 0;
                            proteinLength++;
                        }
                    }
                }
            }
            textOffset += n;
        }
        // a '*' or '-' ending the last protein is dropped with pendingStop
        if (proteinLength > 0) {
            if (w == codes.length) {
                writePos = flush(out, base, capacity, writePos, codes, w);
                w = 0;
            }
            codes[w++] = SEPARATOR;
            residues += proteinLength;
            proteins++;
        }
        writePos = flush(out, base, capacity, writePos, codes, w);
        if (textOffset == 0) {
            throw new FastaFormatException(source, "empty file");
        }
        if (residues == 0) {
            throw new FastaFormatException(source, "no protein residues in " + textOffset + " bytes of text");
        }
        boolean repeat = convention.repeatsProteins();
        long needed = repeat ? writePos + residues : writePos;
        if (needed > capacity) {
            throw new BufferTooSmallException(source + ": parsed proteome (" + proteins + " proteins, " + residues
                    + " residues" + (repeat ? ", each protein twice" : "") + ")", needed, capacity, true);
        }
        if (repeat) {
            repeatProteins(out, base + HEADER_BYTES, base + (int) writePos, residues);
            residues *= 2;
        }
        out.putInt(base, (int) proteins);
        out.putInt(base + 4, (int) residues);
        return (int) needed;
    }

    /**
     * Rewrites the residue stream {@code [from, to)} of {@code out} in place so that every protein's codes appear
     * twice before its separator (CVTree 5's s + s); the stream grows by {@code residues} bytes, which the caller
     * checked fit. It works from the last protein back, so every write lands at or after the start of the protein
     * being moved and no protein is overwritten before it is read: a protein's second copy goes past its old end,
     * and its first copy is taken from the second.
     */
    private static void repeatProteins(ByteBuffer out, int from, int to, long residues) {
        ByteBuffer source = out.duplicate();
        int srcEnd = to;
        int dstEnd = (int) (to + residues);
        while (srcEnd > from) {
            int start = srcEnd - 1; // the protein's separator
            while (start > from && out.get(start - 1) != SEPARATOR) {
                start--;
            }
            int length = srcEnd - 1 - start;
            int second = dstEnd - 1 - length;
            out.put(dstEnd - 1, SEPARATOR);
            out.put(second, source, start, length);
            out.put(second - length, source, second, length);
            srcEnd = start;
            dstEnd = second - length;
        }
    }

    /** A protein's length after {@code more} residues; a protein cannot pass 2^31 − 1 (nor can any buffer). */
    private static int addLength(String source, int length, long more) {
        long sum = length + more;
        if (sum > Integer.MAX_VALUE - 8) {
            throw new FastaFormatException(source, "a protein of more than " + (Integer.MAX_VALUE - 8)
                    + " residues");
        }
        return (int) sum;
    }

    /** Copies {@code length} bytes if they fit; past the end it only counts, so the final error is exact. */
    private static long flush(ByteBuffer out, int base, long capacity, long writePos, byte[] buf, int length) {
        if (writePos + length <= capacity) {
            out.put(base + (int) writePos, buf, 0, length);
        }
        return writePos + length;
    }

    private static int read(String source, InputStream text, byte[] buf) {
        try {
            return text.read(buf, 0, buf.length);
        } catch (ZipException e) {
            throw new FastaFormatException(source, "corrupt gzip data (" + e.getMessage() + ")", e);
        } catch (EOFException e) {
            throw new FastaFormatException(source, "truncated gzip data", e);
        } catch (IOException e) {
            throw new FastaFormatException(source, "read failed: " + e.getMessage(), e);
        }
    }

    private static FastaFormatException binary(String source, long offset, int b) {
        return new FastaFormatException(source, String.format(
                "binary data, not FASTA text (byte 0x%02x at text offset %d)", b, offset));
    }
}
