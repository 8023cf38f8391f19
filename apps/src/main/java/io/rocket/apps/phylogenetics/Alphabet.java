package io.rocket.apps.phylogenetics;

/**
 * The 20-letter amino-acid alphabet used by the composition-vector method, with CVTree's letter mapping.
 *
 * <p>Residues are encoded 0..19 in the order {@code ACDEFGHIKLMNPQRSTVWY}. Following CVTree, the ambiguity and rare
 * codes are folded into standard letters: B→D, U→C, X→G, Z→E, and every other non-standard letter (J, O) → A.
 * Lower case is accepted. CVTree also counts every other character of a sequence line as A; that is the parser's
 * business ({@link Convention}), and {@link #code} maps letters only. A k-string of residue codes {@code s1..sk}
 * has the base-20 index {@code s1·20^(k-1) + ... + sk}, which is how composition-vector keys are formed.
 */
public final class Alphabet {

    /** Number of residue letters. */
    public static final int SIZE = 20;

    /** The residue letters in code order. */
    public static final String LETTERS = "ACDEFGHIKLMNPQRSTVWY";

    /** Byte class: other printable characters (digits, '*', '-', '.', other punctuation, form feed, vertical tab). */
    static final byte OTHER = 20;
    /** Byte class: end of line. */
    static final byte NEWLINE = 21;
    /** Byte class: '>' (a header when it starts a line). */
    static final byte HEADER = 22;
    /** Byte class: ';' (a comment line when it starts a line). */
    static final byte COMMENT = 23;
    /** Byte class: not text (NUL, control characters, bytes ≥ 0x80 in sequence lines). */
    static final byte JUNK = 24;
    /** Byte class: blank, tab or CR (what CVTree trims from both ends of a line). */
    static final byte BLANK = 25;

    /** Class of every unsigned byte value; 0..19 are residue codes. Shared and read-only. */
    private static final byte[] CLASS = buildClassTable();

    private static final long[] POWERS = new long[14];

    static {
        POWERS[0] = 1;
        for (int i = 1; i < POWERS.length; i++) {
            POWERS[i] = POWERS[i - 1] * SIZE;
        }
    }

    private Alphabet() {
    }

    /** Residue code 0..19 of a letter (either case), after CVTree mapping; -1 if {@code c} is not a letter. */
    public static int code(char c) {
        if (c >= 128) {
            return -1;
        }
        int cls = CLASS[c];
        return cls < SIZE ? cls : -1;
    }

    /** The upper-case letter of a residue code 0..19. */
    public static char letter(int code) {
        return LETTERS.charAt(code);
    }

    /** 20^k as a long (k in 0..13). */
    public static long power(int k) {
        return POWERS[k];
    }

    /** Byte class of an unsigned byte value (0..255): a residue code 0..19 or one of the class constants. */
    static byte classOf(int unsignedByte) {
        return CLASS[unsignedByte];
    }

    /** The k letters of a base-20 k-string index, for messages and tests. */
    public static String decode(long index, int k) {
        char[] out = new char[k];
        for (int i = k - 1; i >= 0; i--) {
            out[i] = letter((int) (index % SIZE));
            index /= SIZE;
        }
        return new String(out);
    }

    /** The base-20 index of a k-string written with residue letters (mapping applied). */
    public static long encode(CharSequence letters) {
        long index = 0;
        for (int i = 0; i < letters.length(); i++) {
            int c = code(letters.charAt(i));
            if (c < 0) {
                throw new IllegalArgumentException("not a residue letter: '" + letters.charAt(i) + "' in " + letters);
            }
            index = index * SIZE + c;
        }
        return index;
    }

    private static byte[] buildClassTable() {
        byte[] table = new byte[256];
        for (int b = 0; b < 256; b++) {
            if (b >= 0x80 || (b < 0x20 && b != '\t' && b != '\r' && b != '\n' && b != '\f' && b != 0x0b)
                    || b == 0x7f) {
                table[b] = JUNK;
            } else {
                table[b] = OTHER;
            }
        }
        table[' '] = BLANK;
        table['\t'] = BLANK;
        table['\r'] = BLANK;
        table['\n'] = NEWLINE;
        table['>'] = HEADER;
        table[';'] = COMMENT;
        // Non-standard letters default to A; the standard ones and CVTree's folds overwrite below.
        for (char c = 'A'; c <= 'Z'; c++) {
            table[c] = 0;
            table[Character.toLowerCase(c)] = 0;
        }
        for (int i = 0; i < SIZE; i++) {
            char c = LETTERS.charAt(i);
            table[c] = (byte) i;
            table[Character.toLowerCase(c)] = (byte) i;
        }
        fold(table, 'B', 'D');
        fold(table, 'U', 'C');
        fold(table, 'X', 'G');
        fold(table, 'Z', 'E');
        return table;
    }

    private static void fold(byte[] table, char from, char to) {
        byte code = table[to];
        table[from] = code;
        table[Character.toLowerCase(from)] = code;
    }
}
