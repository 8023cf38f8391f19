package io.rocket.apps.microscopy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * {@link ParticleReader} as it was before its fast paths (issue 43), every JSON file read with Jackson and every CSV
 * field through a String, kept unchanged as the reference that {@link ParticleReaderEquivalenceTest} holds the fast
 * reader to and as the baseline of {@link ParticleParseBench}. Its documentation follows as it was.
 *
 * <p>Reads one particle file: a JSON array of objects {@code {"x": …, "y": …, "sigma": …}} (other fields are
 * ignored), or CSV lines {@code x,y,sigma} with an optional header line and {@code #} comments. The format is told
 * by the first non-blank byte ({@code [} means JSON). Units are nm; σ is the localization precision as a standard
 * deviation. Every localization must have finite x and y and a finite σ &gt; 0, and a particle needs at least one:
 * anything else is a {@link ParticleFormatException} whose message starts with the file name and says where.
 * One instance per CPU-pool thread.
 */
final class PreviousParticleReader {
    private static final JsonFactory JSON = JsonFactory.builder().build();
    private static final int BLANK = 0;
    private static final int HEADER = 1;
    private static final int DATA = 3;
    private final StringBuilder field = new StringBuilder(32);

    /**
     * Reads {@code bytes} (the whole file, from its position to its limit) into {@code out}.
     *
     * @param name the file name, for messages
     */
    public void read(String name, ByteBuffer bytes, Particle out) throws ParticleFormatException {
        out.clear();
        int start = bytes.position();
        while (start < bytes.limit() && Character.isWhitespace(bytes.get(start) & 0xff)) {
            start++;
        }
        if (start == bytes.limit()) {
            throw new ParticleFormatException(name + ": empty file (no localizations)");
        }
        if (bytes.get(start) == '[') {
            readJson(name, bytes, out);
        } else {
            readCsv(name, bytes, out);
        }
        if (out.size() == 0) {
            throw new ParticleFormatException(name + ": no localizations");
        }
    }

    private static void readJson(String name, ByteBuffer bytes, Particle out) throws ParticleFormatException {
        try (JsonParser parser = JSON.createParser(new BufferStream(bytes.duplicate()))) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw new ParticleFormatException(name + ": expected a JSON array of {x, y, sigma} objects");
            }
            int index = 0;
            JsonToken token;
            while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
                if (token != JsonToken.START_OBJECT) {
                    throw new ParticleFormatException(name + ": element " + index
                            + " is not an object with x, y and sigma (line " + parser.currentLocation().getLineNr()
                            + ")");
                }
                double x = Double.NaN;
                double y = Double.NaN;
                double sigma = Double.NaN;
                int seen = 0;
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String key = parser.currentName();
                    JsonToken value = parser.nextToken();
                    int bit = switch (key) {
                        case "x" -> 1;
                        case "y" -> 2;
                        case "sigma" -> 4;
                        default -> 0;
                    };
                    if (bit == 0) {
                        parser.skipChildren();
                        continue;
                    }
                    if (value != JsonToken.VALUE_NUMBER_INT && value != JsonToken.VALUE_NUMBER_FLOAT) {
                        throw new ParticleFormatException(name + ": element " + index + ": " + key
                                + " is not a number (" + parser.getText() + ")");
                    }
                    double v = parser.getDoubleValue();
                    if (bit == 1) {
                        x = v;
                    } else if (bit == 2) {
                        y = v;
                    } else {
                        sigma = v;
                    }
                    seen |= bit;
                }
                if (seen != 7) {
                    throw new ParticleFormatException(name + ": element " + index + " lacks "
                            + ((seen & 1) == 0 ? "x" : (seen & 2) == 0 ? "y" : "sigma"));
                }
                add(name, "element " + index, x, y, sigma, out);
                index++;
            }
            if (parser.nextToken() != null) {
                throw new ParticleFormatException(name + ": text after the JSON array (line "
                        + parser.currentLocation().getLineNr() + ")");
            }
        } catch (StreamReadException e) {
            throw new ParticleFormatException(name + ": malformed JSON: " + e.getOriginalMessage()
                    + " (line " + e.getLocation().getLineNr() + ")", e);
        } catch (IOException e) {
            throw new ParticleFormatException(name + ": " + e.getMessage(), e);
        }
    }

    private void readCsv(String name, ByteBuffer bytes, Particle out) throws ParticleFormatException {
        int line = 0;
        int pos = bytes.position();
        int end = bytes.limit();
        double[] values = new double[3];
        boolean contentSeen = false;
        while (pos < end) {
            int eol = pos;
            while (eol < end && bytes.get(eol) != '\n') {
                eol++;
            }
            line++;
            int lineEnd = eol > pos && bytes.get(eol - 1) == '\r' ? eol - 1 : eol;
            int kind = splitLine(name, line, bytes, pos, lineEnd, values, !contentSeen);
            if (kind == DATA) {
                add(name, "line " + line, values[0], values[1], values[2], out);
            }
            contentSeen |= kind != BLANK;
            pos = eol + 1;
        }
    }

    /**
     * Parses one CSV line into {@code values}.
     *
     * @param headerAllowed whether this is the first line that is neither blank nor a comment
     * @return {@link #DATA}, {@link #HEADER} or {@link #BLANK} (blank or comment)
     */
    private int splitLine(String name, int line, ByteBuffer bytes, int from, int to, double[] values,
                          boolean headerAllowed) throws ParticleFormatException {
        int k = from;
        while (k < to && isBlank(bytes.get(k))) {
            k++;
        }
        if (k == to || bytes.get(k) == '#') {
            return BLANK;
        }
        int count = 0;
        boolean header = false;
        while (k <= to) {
            field.setLength(0);
            while (k < to && bytes.get(k) != ',') {
                byte b = bytes.get(k++);
                if (!isBlank(b)) {
                    field.append((char) (b & 0xff));
                }
            }
            k++;
            if (count == 3) {
                throw new ParticleFormatException(name + ": line " + line + ": more than 3 fields (x,y,sigma)");
            }
            String text = field.toString();
            try {
                values[count] = Double.parseDouble(text);
            } catch (NumberFormatException e) {
                if (headerAllowed && isColumnName(text)) {
                    header = true;
                } else {
                    throw new ParticleFormatException(name + ": line " + line + ": '" + text
                            + "' is not a number (expected x,y,sigma)");
                }
            }
            count++;
        }
        if (count != 3) {
            throw new ParticleFormatException(name + ": line " + line + ": " + count
                    + (count == 1 ? " field" : " fields") + ", expected 3 (x,y,sigma)");
        }
        return header ? HEADER : DATA;
    }

    private static boolean isColumnName(String text) {
        return !text.isEmpty() && Character.isLetter(text.charAt(0)) && !text.toLowerCase(Locale.ROOT).equals("nan")
                && !text.toLowerCase(Locale.ROOT).contains("infinity");
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t' || b == '"';
    }

    private static void add(String name, String where, double x, double y, double sigma, Particle out)
            throws ParticleFormatException {
        if (!Double.isFinite(x) || !Double.isFinite(y)) {
            throw new ParticleFormatException(name + ": " + where + ": position (" + x + ", " + y
                    + ") is not finite");
        }
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new ParticleFormatException(name + ": " + where + ": sigma " + sigma
                    + " is not a positive number (the localization precision in nm)");
        }
        out.add(x, y, sigma);
    }

    /** Jackson reads streams; this one reads a buffer without copying it. */
    private static final class BufferStream extends InputStream {
        private final ByteBuffer buffer;

        BufferStream(ByteBuffer buffer) {
            this.buffer = buffer;
        }

        @Override
        public int read() {
            return buffer.hasRemaining() ? buffer.get() & 0xff : -1;
        }

        @Override
        public int read(byte[] target, int offset, int length) {
            if (!buffer.hasRemaining()) {
                return -1;
            }
            int n = Math.min(length, buffer.remaining());
            buffer.get(target, offset, n);
            return n;
        }
    }
}
