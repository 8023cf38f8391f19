package io.rocket.apps.phylogenetics;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Streaming reader of protein FASTA (plain or gzip) into the "parsed item" layout, the input of
 * {@link CompositionVectorBuilder}.
 *
 * <p>Gzip is recognised by its magic bytes {@code 1f 8b}, never by the file name; concatenated gzip members
 * (bgzip) are read in full. The text is scanned in 64 KiB chunks and residue codes go straight into the output
 * buffer, so nothing but the output is ever as large as the file. Lines starting with {@code >} are headers and
 * separate proteins; lines starting with {@code ;} are comments; letters map to codes 0..19 through
 * {@link Alphabet} (lower case, CVTree folds); blanks, CR, digits and punctuation such as {@code *} and {@code -}
 * are ignored, and so is a leading UTF-8 byte-order mark. Proteins without residues are dropped.
 *
 * <p>Parsed layout, written at the output buffer's position in the buffer's own byte order (the caller sets
 * little-endian); neither buffer's position is changed:
 * <pre>
 *   offset 0   int   proteinCount   proteins with at least one residue
 *   offset 4   int   residueCount   residues over all proteins
 *   offset 8   byte  stream[residueCount + proteinCount]
 *                    each protein's residue codes (0..19) followed by SEPARATOR (0xFF)
 * </pre>
 * Size: {@code 8 + residues + proteins}, at most {@link #maxParsedBytes(long)} of the uncompressed text size.
 *
 * <p>Errors are {@link FastaFormatException}s naming the item: empty file, corrupt or truncated gzip, binary
 * data (NUL, control characters, or bytes ≥ 0x80 outside headers), sequence letters before the first header,
 * no residues at all. An output that does not fit raises {@link BufferTooSmallException} with the exact size
 * needed. An instance holds a reusable scratch chunk: use one per thread.
 */
public final class FastaParser {

    /** Bytes before the residue stream. */
    public static final int HEADER_BYTES = 8;

    /** Byte that ends every protein in the residue stream. */
    public static final byte SEPARATOR = (byte) 0xFF;

    private static final int CHUNK = 1 << 16;

    private final byte[] chunk = new byte[CHUNK];

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

    /** Upper bound of the parsed size for a FASTA text of {@code textBytes} uncompressed bytes. */
    public static long maxParsedBytes(long textBytes) {
        // Every residue is one text byte, and every separator replaces at least the '>' of the next header
        // (the last protein's separator may stand for nothing, hence the +1).
        return HEADER_BYTES + textBytes + 1;
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
        final int base = out.position();
        final long capacity = out.limit() - base;
        long writePos = HEADER_BYTES;
        long textOffset = 0;
        long residues = 0;
        long proteins = 0;
        int proteinLength = 0;
        boolean lineStart = true;
        boolean skipLine = false;
        boolean seenHeader = false;
        byte[] buf = chunk;
        int n;
        while ((n = read(source, text, buf)) > 0) {
            int w = 0; // residue codes are compacted into the front of the chunk: w never passes i
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
                } else if (cls < Alphabet.SIZE) {
                    if (!seenHeader) {
                        throw new FastaFormatException(source, "not FASTA: sequence letter '" + (char) b
                                + "' at byte " + (textOffset + i) + " before the first '>' header");
                    }
                    buf[w++] = cls;
                    proteinLength++;
                    lineStart = false;
                } else if (cls == Alphabet.NEWLINE) {
                    lineStart = true;
                } else if (cls == Alphabet.HEADER && lineStart) {
                    if (proteinLength > 0) {
                        buf[w++] = SEPARATOR;
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
                } else if (b != '\r') {
                    lineStart = false;
                }
            }
            writePos = flush(out, base, capacity, writePos, buf, w);
            textOffset += n;
        }
        if (proteinLength > 0) {
            buf[0] = SEPARATOR;
            writePos = flush(out, base, capacity, writePos, buf, 1);
            residues += proteinLength;
            proteins++;
        }
        if (textOffset == 0) {
            throw new FastaFormatException(source, "empty file");
        }
        if (residues == 0) {
            throw new FastaFormatException(source, "no protein residues in " + textOffset + " bytes of text");
        }
        if (writePos > capacity) {
            throw new BufferTooSmallException(source + ": parsed proteome (" + proteins + " proteins, " + residues
                    + " residues)", writePos, capacity, true);
        }
        out.putInt(base, (int) proteins);
        out.putInt(base + 4, (int) residues);
        return (int) writePos;
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
