package io.rocket.apps.forensics;

import java.nio.ByteBuffer;

/**
 * Conversions between the full DFT of a real h×w image and its R2C half (columns 0..w/2), which is all a real
 * image's spectrum holds: X(r, c) = conj(X((h−r) mod h, (w−c) mod w)).
 *
 * <p>Arrays are complex interleaved, row-major: full (r, c) at 2(r·w + c); half (r, c) at 2(r·(w/2+1) + c). When a
 * full spectrum G is not exactly Hermitian (the Wiener gain is not symmetric at the zero-padded window edges),
 * {@link #hermitianPart} keeps (G(k) + conj(G(−k)))/2, which is exactly the DFT of Re(IFFT2(G)): so the PCE item
 * is the spectrum of the very pattern the NCC item holds, without a second forward FFT.
 */
public final class HalfSpectrum {

    private HalfSpectrum() {
    }

    /** Complex values in the half spectrum of an h×w image. */
    public static long halfLength(int h, int w) {
        return (long) h * (w / 2 + 1);
    }

    /** Writes the Hermitian part of full spectrum {@code g}, half columns only, into {@code half}. */
    public static void hermitianPart(float[] g, int h, int w, float[] half) {
        int hw = w / 2 + 1;
        for (int r = 0; r < h; r++) {
            int mr = r == 0 ? 0 : h - r;
            for (int c = 0; c < hw; c++) {
                int mc = c == 0 ? 0 : w - c;
                int a = 2 * (r * w + c);
                int b = 2 * (mr * w + mc);
                int o = 2 * (r * hw + c);
                half[o] = 0.5f * (g[a] + g[b]);
                half[o + 1] = 0.5f * (g[a + 1] - g[b + 1]);
            }
        }
    }

    /** As {@link #hermitianPart(float[], int, int, float[])}, written as floats at byte offset {@code at}. */
    public static void hermitianPart(float[] g, int h, int w, ByteBuffer out, int at) {
        int hw = w / 2 + 1;
        int o = at;
        for (int r = 0; r < h; r++) {
            int mr = r == 0 ? 0 : h - r;
            for (int c = 0; c < hw; c++, o += 8) {
                int mc = c == 0 ? 0 : w - c;
                int a = 2 * (r * w + c);
                int b = 2 * (mr * w + mc);
                out.putFloat(o, 0.5f * (g[a] + g[b]));
                out.putFloat(o + 4, 0.5f * (g[a + 1] - g[b + 1]));
            }
        }
    }

    /**
     * Rebuilds the full spectrum from a half: columns c ≤ w/2 are copied, and (r, c) for c > w/2 is the conjugate
     * of ((h−r) mod h, w−c).
     */
    public static void expand(float[] half, int h, int w, float[] full) {
        int hw = w / 2 + 1;
        for (int r = 0; r < h; r++) {
            int mr = r == 0 ? 0 : h - r;
            for (int c = 0; c < w; c++) {
                int o = 2 * (r * w + c);
                if (c < hw) {
                    int a = 2 * (r * hw + c);
                    full[o] = half[a];
                    full[o + 1] = half[a + 1];
                } else {
                    int a = 2 * (mr * hw + (w - c));
                    full[o] = half[a];
                    full[o + 1] = -half[a + 1];
                }
            }
        }
    }
}
