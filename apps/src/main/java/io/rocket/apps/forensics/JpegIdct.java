package io.rocket.apps.forensics;

import java.util.Arrays;

/**
 * The inverse DCT of one 8×8 block, libjpeg's "islow" integer algorithm (jidctint.c: Loeffler, Ligtenberg and
 * Moschytz with 13-bit constants, 2 extra bits between the passes), reproduced operation for operation so that
 * the samples are bit-identical to libjpeg's default decoder: the one inside the JDK's ImageIO that the forensics
 * app used before, and libjpeg-turbo's {@code JDCT_ISLOW}. A faster, less exact IDCT (AAN "ifast") would move
 * samples by ±1 and so change every PRNU pattern a little; the exact one keeps results comparable across versions.
 *
 * <p>Both of libjpeg's shortcuts are kept (a column whose AC terms are all zero, a row likewise): they give the
 * same numbers as the full computation and save most of the work on smooth blocks.
 */
final class JpegIdct {

    private static final int CONST_BITS = 13;
    private static final int PASS1_BITS = 2;

    private static final int FIX_0_298631336 = 2446;
    private static final int FIX_0_390180644 = 3196;
    private static final int FIX_0_541196100 = 4433;
    private static final int FIX_0_765366865 = 6270;
    private static final int FIX_0_899976223 = 7373;
    private static final int FIX_1_175875602 = 9633;
    private static final int FIX_1_501321110 = 12299;
    private static final int FIX_1_847759065 = 15137;
    private static final int FIX_1_961570560 = 16069;
    private static final int FIX_2_053119869 = 16819;
    private static final int FIX_2_562915447 = 20995;
    private static final int FIX_3_072711026 = 25172;

    /**
     * libjpeg's post-IDCT range limit, indexed by the descaled value {@code & 1023}: the value plus 128 clamped to
     * 0..255, with libjpeg's wrap-around for values outside ±512 (only corrupt data produce those).
     */
    private static final float[] RANGE_LIMIT = new float[1024];

    static {
        for (int i = 0; i < 1024; i++) {
            int signed = i < 512 ? i : i - 1024;
            RANGE_LIMIT[i] = Math.max(0, Math.min(255, signed + 128));
        }
    }

    private JpegIdct() {
    }

    /** The sample of a descaled IDCT output. */
    static float limit(int descaled) {
        return RANGE_LIMIT[descaled & 1023];
    }

    /**
     * Transforms the dequantized coefficients {@code in} (natural order, 64) into 8 rows of 8 samples at
     * {@code out[offset + r * stride + c]}, and zeroes {@code in} for the next block.
     *
     * @param work 64 ints of scratch
     */
    static void islow(int[] in, int[] work, float[] out, int offset, int stride) {
        for (int col = 0; col < 8; col++) {
            int d0 = in[col];
            int d1 = in[8 + col];
            int d2 = in[16 + col];
            int d3 = in[24 + col];
            int d4 = in[32 + col];
            int d5 = in[40 + col];
            int d6 = in[48 + col];
            int d7 = in[56 + col];
            if ((d1 | d2 | d3 | d4 | d5 | d6 | d7) == 0) {
                int dc = d0 << PASS1_BITS;
                for (int r = 0; r < 64; r += 8) {
                    work[r + col] = dc;
                }
                continue;
            }
            // even part
            int z1 = (d2 + d6) * FIX_0_541196100;
            int tmp2 = z1 - d6 * FIX_1_847759065;
            int tmp3 = z1 + d2 * FIX_0_765366865;
            int tmp0 = (d0 + d4) << CONST_BITS;
            int tmp1 = (d0 - d4) << CONST_BITS;
            int tmp10 = tmp0 + tmp3;
            int tmp13 = tmp0 - tmp3;
            int tmp11 = tmp1 + tmp2;
            int tmp12 = tmp1 - tmp2;
            // odd part
            int o0 = d7;
            int o1 = d5;
            int o2 = d3;
            int o3 = d1;
            int y1 = o0 + o3;
            int y2 = o1 + o2;
            int y3 = o0 + o2;
            int y4 = o1 + o3;
            int z5 = (y3 + y4) * FIX_1_175875602;
            o0 *= FIX_0_298631336;
            o1 *= FIX_2_053119869;
            o2 *= FIX_3_072711026;
            o3 *= FIX_1_501321110;
            y1 *= -FIX_0_899976223;
            y2 *= -FIX_2_562915447;
            y3 = y3 * -FIX_1_961570560 + z5;
            y4 = y4 * -FIX_0_390180644 + z5;
            o0 += y1 + y3;
            o1 += y2 + y4;
            o2 += y2 + y3;
            o3 += y1 + y4;
            final int round = 1 << (CONST_BITS - PASS1_BITS - 1);
            final int shift = CONST_BITS - PASS1_BITS;
            work[col] = (tmp10 + o3 + round) >> shift;
            work[56 + col] = (tmp10 - o3 + round) >> shift;
            work[8 + col] = (tmp11 + o2 + round) >> shift;
            work[48 + col] = (tmp11 - o2 + round) >> shift;
            work[16 + col] = (tmp12 + o1 + round) >> shift;
            work[40 + col] = (tmp12 - o1 + round) >> shift;
            work[24 + col] = (tmp13 + o0 + round) >> shift;
            work[32 + col] = (tmp13 - o0 + round) >> shift;
        }
        Arrays.fill(in, 0);
        final int round = 1 << (CONST_BITS + PASS1_BITS + 3 - 1);
        final int shift = CONST_BITS + PASS1_BITS + 3;
        for (int row = 0, o = offset; row < 64; row += 8, o += stride) {
            int w0 = work[row];
            int w1 = work[row + 1];
            int w2 = work[row + 2];
            int w3 = work[row + 3];
            int w4 = work[row + 4];
            int w5 = work[row + 5];
            int w6 = work[row + 6];
            int w7 = work[row + 7];
            if ((w1 | w2 | w3 | w4 | w5 | w6 | w7) == 0) {
                float v = limit((w0 + (1 << (PASS1_BITS + 2))) >> (PASS1_BITS + 3));
                Arrays.fill(out, o, o + 8, v);
                continue;
            }
            int z1 = (w2 + w6) * FIX_0_541196100;
            int tmp2 = z1 - w6 * FIX_1_847759065;
            int tmp3 = z1 + w2 * FIX_0_765366865;
            int tmp0 = (w0 + w4) << CONST_BITS;
            int tmp1 = (w0 - w4) << CONST_BITS;
            int tmp10 = tmp0 + tmp3;
            int tmp13 = tmp0 - tmp3;
            int tmp11 = tmp1 + tmp2;
            int tmp12 = tmp1 - tmp2;
            int o0 = w7;
            int o1 = w5;
            int o2 = w3;
            int o3 = w1;
            int y1 = o0 + o3;
            int y2 = o1 + o2;
            int y3 = o0 + o2;
            int y4 = o1 + o3;
            int z5 = (y3 + y4) * FIX_1_175875602;
            o0 *= FIX_0_298631336;
            o1 *= FIX_2_053119869;
            o2 *= FIX_3_072711026;
            o3 *= FIX_1_501321110;
            y1 *= -FIX_0_899976223;
            y2 *= -FIX_2_562915447;
            y3 = y3 * -FIX_1_961570560 + z5;
            y4 = y4 * -FIX_0_390180644 + z5;
            o0 += y1 + y3;
            o1 += y2 + y4;
            o2 += y2 + y3;
            o3 += y1 + y4;
            out[o] = limit((tmp10 + o3 + round) >> shift);
            out[o + 7] = limit((tmp10 - o3 + round) >> shift);
            out[o + 1] = limit((tmp11 + o2 + round) >> shift);
            out[o + 6] = limit((tmp11 - o2 + round) >> shift);
            out[o + 2] = limit((tmp12 + o1 + round) >> shift);
            out[o + 5] = limit((tmp12 - o1 + round) >> shift);
            out[o + 3] = limit((tmp13 + o0 + round) >> shift);
            out[o + 4] = limit((tmp13 - o0 + round) >> shift);
        }
    }

    /** A block whose AC coefficients are all zero: every sample is the DC term's (as the full transform gives). */
    static void flat(int dequantizedDc, float[] out, int offset, int stride) {
        // column pass: dc << PASS1_BITS; row pass: descale by PASS1_BITS + 3
        float v = limit(((dequantizedDc << PASS1_BITS) + (1 << (PASS1_BITS + 2))) >> (PASS1_BITS + 3));
        for (int r = 0, o = offset; r < 8; r++, o += stride) {
            Arrays.fill(out, o, o + 8, v);
        }
    }
}
