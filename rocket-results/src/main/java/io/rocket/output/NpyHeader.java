package io.rocket.output;

import java.nio.charset.StandardCharsets;

/**
 * The header of a NumPy {@code .npy} file (format 1.0, or 2.0 when the header dictionary does not fit 1.0's 16-bit
 * length): the magic string, the version, the header's length and the dictionary of {@code descr},
 * {@code fortran_order} (always C order here) and {@code shape}, padded with blanks to a multiple of 64 bytes so the
 * data that follows is aligned, as NumPy itself writes it.
 */
public final class NpyHeader {
    private static final int ALIGN = 64;

    private NpyHeader() {
    }

    /**
     * The header of a C-order array.
     *
     * @param descr     the dtype as NumPy writes it: {@code '<f4'} (with its quotes) or a structured
     *                  {@code [('i', '<i4'), ...]}
     * @param minLength the least length of the header; a file whose shape grows reserves room with it, so the header
     *                  can be rewritten in place
     * @param shape     the array's dimensions
     * @return the header bytes, a multiple of 64 long and at least {@code minLength}
     */
    public static byte[] bytes(String descr, int minLength, long... shape) {
        StringBuilder dict = new StringBuilder("{'descr': ").append(descr)
                .append(", 'fortran_order': False, 'shape': (");
        for (int k = 0; k < shape.length; k++) {
            dict.append(k == 0 ? "" : ", ").append(shape[k]);
        }
        dict.append(shape.length == 1 ? ",), }" : "), }");
        int version = 1;
        int prefix = 10;
        int total = padded(prefix + dict.length() + 1, minLength);
        if (total - prefix > 0xffff) {
            version = 2;
            prefix = 12;
            total = padded(prefix + dict.length() + 1, minLength);
        }
        byte[] header = new byte[total];
        byte[] magic = {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', (byte) version, 0};
        System.arraycopy(magic, 0, header, 0, magic.length);
        int length = total - prefix;
        header[8] = (byte) length;
        header[9] = (byte) (length >>> 8);
        if (version == 2) {
            header[10] = (byte) (length >>> 16);
            header[11] = (byte) (length >>> 24);
        }
        byte[] text = dict.toString().getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(text, 0, header, prefix, text.length);
        for (int k = prefix + text.length; k < total - 1; k++) {
            header[k] = ' ';
        }
        header[total - 1] = '\n';
        return header;
    }

    private static int padded(int length, int minLength) {
        int total = Math.max(length, minLength);
        return (total + ALIGN - 1) / ALIGN * ALIGN;
    }

    /**
     * The descr of a plain number type, quoted as the header wants it.
     *
     * @param dtype the number type
     * @return e.g. {@code '<f4'}
     */
    public static String plain(NpyDtype dtype) {
        return "'" + dtype.descr() + "'";
    }
}
