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
 * Reads one particle file: a JSON array of objects {@code {"x": …, "y": …, "sigma": …}} (other fields are
 * ignored), or CSV lines {@code x,y,sigma} with an optional header line and {@code #} comments. The format is told
 * by the first non-blank byte ({@code [} means JSON). Units are nm; σ is the localization precision as a standard
 * deviation. Every localization must have finite x and y and a finite σ &gt; 0, and a particle needs at least one:
 * anything else is a {@link ParticleFormatException} whose message starts with the file name and says where.
 * One instance per CPU-pool thread.
 *
 * <p>Numbers are read straight from the bytes, with no object per value: a decimal of up to 18 significant digits
 * and a power of ten within ±22 is exactly a double multiplied or divided by an exact power of ten, rounded once,
 * which is the correctly rounded value that {@link Double#parseDouble} and Jackson give; other numbers go to
 * {@link Double#parseDouble}. A JSON file is first read by a strict reader of the common shape (objects of numbers,
 * other fields holding plain strings, numbers, true, false or null, JSON whitespace only); anything it does not
 * accept as valid, a localization it would reject included, is read again by Jackson from the start, so every error
 * and every unusual but valid file reads exactly as with Jackson alone.
 */
public final class ParticleReader {
    private static final JsonFactory JSON = JsonFactory.builder().build();
    private static final int BLANK = 0;
    private static final int HEADER = 1;
    private static final int DATA = 3;
    private final StringBuilder field = new StringBuilder(32);

    /** Exact powers of ten as doubles (10^22 is the largest one). */
    private static final double[] POWERS_OF_TEN = new double[23];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int k = 1; k < POWERS_OF_TEN.length; k++) {
            POWERS_OF_TEN[k] = POWERS_OF_TEN[k - 1] * 10;
        }
    }

    /** More significant digits than this, and a decimal may not fit a long: it goes to the slow path. */
    private static final int MAX_DIGITS = 18;

    // The JSON fast path's state during one call: the file, the next byte and the end; the last number read.
    private ByteBuffer in;
    private int at;
    private int end;
    private double number;

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
            boolean read;
            try {
                read = readCommonJson(bytes, out);
            } finally {
                in = null; // the reader outlives the call (one per thread); the caller's buffer must not
            }
            if (!read) {
                out.clear();
                readJson(name, bytes, out);
            }
        } else {
            readCsv(name, bytes, out);
        }
        if (out.size() == 0) {
            throw new ParticleFormatException(name + ": no localizations");
        }
    }

    /**
     * Reads a JSON file of the common shape: an array of objects whose x, y and sigma are numbers and whose other
     * fields hold plain strings (printable ASCII, no escapes), numbers, true, false or null, with valid
     * localizations only. Returns false, having read part of the file, on anything else; Jackson then reads it.
     */
    private boolean readCommonJson(ByteBuffer bytes, Particle out) {
        in = bytes;
        at = bytes.position();
        end = bytes.limit();
        int c = skipSpace();
        if (c != '[') {
            return false; // leading blanks that are not JSON whitespace
        }
        at++;
        c = skipSpace();
        if (c == ']') {
            at++;
            return skipSpace() == -1;
        }
        while (true) {
            if (c != '{' || !readObject(out)) {
                return false;
            }
            c = skipSpace();
            if (c == ']') {
                at++;
                return skipSpace() == -1;
            }
            if (c != ',') {
                return false;
            }
            at++;
            c = skipSpace();
        }
    }

    /** Reads one object at {@code at} (its '{') and adds its localization; false as for the file. */
    private boolean readObject(Particle out) {
        at++;
        double x = Double.NaN;
        double y = Double.NaN;
        double sigma = Double.NaN;
        int seen = 0;
        int c = skipSpace();
        while (true) {
            if (c != '"') {
                return false; // "{}" included: it lacks x
            }
            int key = ++at;
            while (true) {
                if (at >= end) {
                    return false;
                }
                int b = in.get(at);
                if (b == '"') {
                    break;
                }
                if (b < 0x20 || b > 0x7e || b == '\\') { // bytes >= 0x80 are negative
                    return false;
                }
                at++;
            }
            int bit = keyBit(key, at - key);
            at++;
            if (skipSpace() != ':') {
                return false;
            }
            at++;
            c = skipSpace();
            if (bit != 0) {
                if (!jsonNumber(c)) {
                    return false;
                }
                if (bit == 1) {
                    x = number;
                } else if (bit == 2) {
                    y = number;
                } else {
                    sigma = number;
                }
                seen |= bit;
            } else if (!skipScalar(c)) {
                return false;
            }
            c = skipSpace();
            if (c == '}') {
                at++;
                break;
            }
            if (c != ',') {
                return false;
            }
            at++;
            c = skipSpace();
        }
        if (seen != 7 || !Double.isFinite(x) || !Double.isFinite(y) || !(sigma > 0) || Double.isInfinite(sigma)) {
            return false; // Jackson's reading names the problem
        }
        out.add(x, y, sigma);
        return true;
    }

    /** 1, 2 or 4 for the key x, y or sigma of {@code length} bytes at {@code key}; 0 for any other. */
    private int keyBit(int key, int length) {
        if (length == 1) {
            int b = in.get(key);
            return b == 'x' ? 1 : b == 'y' ? 2 : 0;
        }
        return length == 5 && in.get(key) == 's' && in.get(key + 1) == 'i' && in.get(key + 2) == 'g'
                && in.get(key + 3) == 'm' && in.get(key + 4) == 'a' ? 4 : 0;
    }

    /** Skips a plain string, a number, true, false or null starting with {@code c}; false for anything else. */
    private boolean skipScalar(int c) {
        if (c == '"') {
            while (++at < end) {
                int b = in.get(at);
                if (b == '"') {
                    at++;
                    return true;
                }
                if (b < 0x20 || b > 0x7e || b == '\\') {
                    return false;
                }
            }
            return false;
        }
        if (c == 't') {
            return literal("true");
        }
        if (c == 'f') {
            return literal("false");
        }
        if (c == 'n') {
            return literal("null");
        }
        return jsonNumber(c);
    }

    private boolean literal(String word) {
        if (end - at < word.length()) {
            return false;
        }
        for (int k = 0; k < word.length(); k++) {
            if (in.get(at + k) != word.charAt(k)) {
                return false;
            }
        }
        at += word.length();
        return true; // what follows must be a separator, which the caller checks
    }

    /**
     * Reads a JSON number at {@code at} (first byte {@code c}) into {@link #number}, as Jackson's
     * {@code getDoubleValue} gives it: an integer is converted from its integer value (so "-0" is 0.0), a number
     * with a fraction or an exponent is parsed as a double. False if the bytes are not a JSON number (Jackson
     * rejects leading zeros, a bare '.', a missing digit, a '+' sign).
     */
    private boolean jsonNumber(int c) {
        int from = at;
        boolean negative = c == '-';
        if (negative) {
            at++;
        }
        long mantissa = 0;
        int digits = 0; // significant digits in the mantissa
        int exponent = 0;
        int first = at;
        int b = peek();
        if (b == '0') {
            at++;
            b = peek();
            if (b >= '0' && b <= '9') {
                return false;
            }
        } else {
            while (b >= '0' && b <= '9') {
                if (digits < MAX_DIGITS) {
                    mantissa = mantissa * 10 + (b - '0');
                    digits += mantissa == 0 ? 0 : 1;
                } else {
                    digits = MAX_DIGITS + 1;
                }
                at++;
                b = peek();
            }
        }
        if (at == first) {
            return false;
        }
        boolean integer = true;
        if (b == '.') {
            integer = false;
            at++;
            int fraction = at;
            b = peek();
            while (b >= '0' && b <= '9') {
                if (digits < MAX_DIGITS) {
                    mantissa = mantissa * 10 + (b - '0');
                    digits += mantissa == 0 ? 0 : 1;
                    exponent--;
                } else {
                    digits = MAX_DIGITS + 1;
                }
                at++;
                b = peek();
            }
            if (at == fraction) {
                return false;
            }
        }
        if (b == 'e' || b == 'E') {
            integer = false;
            at++;
            b = peek();
            boolean negativeExponent = b == '-';
            if (b == '-' || b == '+') {
                at++;
                b = peek();
            }
            int expFrom = at;
            int e = 0;
            while (b >= '0' && b <= '9') {
                e = Math.min(e * 10 + (b - '0'), 100_000);
                at++;
                b = peek();
            }
            if (at == expFrom) {
                return false;
            }
            exponent += negativeExponent ? -e : e;
        }
        if (at - from > 100) {
            return false; // Jackson limits a number's length; leave long ones to it
        }
        if (integer && mantissa == 0) {
            number = 0.0; // "-0" is the integer 0
            return true;
        }
        double value = digits <= MAX_DIGITS ? exact(mantissa, exponent) : Double.NaN;
        if (Double.isNaN(value)) {
            value = Double.parseDouble(ascii(first, at)); // the sign is applied below
        }
        number = negative ? -value : value;
        return true;
    }

    private int peek() {
        return at < end ? in.get(at) & 0xff : -1;
    }

    /** The next byte that is not JSON whitespace (not moved past), or -1 at the end. */
    private int skipSpace() {
        while (at < end) {
            int b = in.get(at) & 0xff;
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return b;
            }
            at++;
        }
        return -1;
    }

    private String ascii(int from, int to) {
        field.setLength(0);
        for (int k = from; k < to; k++) {
            field.append((char) (in.get(k) & 0xff));
        }
        return field.toString();
    }

    /**
     * {@code mantissa · 10^exponent} correctly rounded when both factors are exact doubles (mantissa below 2^53,
     * |exponent| ≤ 22): one multiplication or division rounds once. NaN when they are not.
     */
    private static double exact(long mantissa, int exponent) {
        if (mantissa >= 1L << 53 || exponent < -22 || exponent > 22) {
            return Double.NaN;
        }
        return exponent >= 0 ? mantissa * POWERS_OF_TEN[exponent] : mantissa / POWERS_OF_TEN[-exponent];
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
            int fieldStart = k;
            while (k < to && bytes.get(k) != ',') {
                k++;
            }
            int fieldEnd = k;
            k++;
            if (count == 3) {
                throw new ParticleFormatException(name + ": line " + line + ": more than 3 fields (x,y,sigma)");
            }
            if (csvNumber(bytes, fieldStart, fieldEnd)) {
                values[count++] = number;
                continue;
            }
            field.setLength(0);
            for (int f = fieldStart; f < fieldEnd; f++) {
                byte b = bytes.get(f);
                if (!isBlank(b)) {
                    field.append((char) (b & 0xff));
                }
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

    /**
     * Reads a CSV field of plain decimal notation ({@code [+-]digits[.digits][(e|E)[+-]digits]}, blanks anywhere
     * dropped as the field's text drops them, at least one digit before the exponent) into {@link #number} when its
     * value is exact (see {@link #exact}); false for anything else, which {@link Double#parseDouble} reads from the
     * field's text as before ("NaN", "Infinity", hex, suffixes, other blanks, long or extreme numbers, errors).
     */
    private boolean csvNumber(ByteBuffer bytes, int from, int to) {
        int k = from;
        int b = 0;
        while (k < to && isBlank(b = bytes.get(k))) {
            k++;
        }
        boolean negative = false;
        if (k < to && (b == '-' || b == '+')) {
            negative = b == '-';
            k++;
        }
        long mantissa = 0;
        int digits = 0;
        int exponent = 0;
        int seen = 0; // digits of the mantissa, leading zeros included
        boolean point = false;
        for (; k < to; k++) {
            b = bytes.get(k);
            if (b >= '0' && b <= '9') {
                if (digits >= MAX_DIGITS) {
                    return false;
                }
                mantissa = mantissa * 10 + (b - '0');
                digits += mantissa == 0 ? 0 : 1;
                exponent -= point ? 1 : 0;
                seen++;
            } else if (b == '.' && !point) {
                point = true;
            } else if (!isBlank(b)) {
                break;
            }
        }
        if (seen == 0) {
            return false;
        }
        if (k < to) {
            if (b != 'e' && b != 'E') {
                return false;
            }
            k++;
            while (k < to && isBlank(b = bytes.get(k))) {
                k++;
            }
            boolean negativeExponent = false;
            if (k < to && (b == '-' || b == '+')) {
                negativeExponent = b == '-';
                k++;
            }
            int e = 0;
            int expDigits = 0;
            for (; k < to; k++) {
                b = bytes.get(k);
                if (b >= '0' && b <= '9') {
                    e = Math.min(e * 10 + (b - '0'), 100_000);
                    expDigits++;
                } else if (!isBlank(b)) {
                    return false;
                }
            }
            if (expDigits == 0) {
                return false;
            }
            exponent += negativeExponent ? -e : e;
        }
        double value = mantissa == 0 ? 0.0 : exact(mantissa, exponent);
        if (Double.isNaN(value)) {
            return false;
        }
        number = negative ? -value : value;
        return true;
    }

    private static boolean isColumnName(String text) {
        return !text.isEmpty() && Character.isLetter(text.charAt(0)) && !text.toLowerCase(Locale.ROOT).equals("nan")
                && !text.toLowerCase(Locale.ROOT).contains("infinity");
    }

    private static boolean isBlank(int b) {
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
