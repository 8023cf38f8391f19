package io.rocket.apps.forensics;

import java.nio.ByteBuffer;

/**
 * The preprocess step: turns a decoded gray image into the camera fingerprint estimate (PRNU pattern) that is
 * cached and compared.
 *
 * <p>Pipeline (apps.md §1): {@link NoiseResidualFilter} → {@link ZeroMeanTotal} → forward FFT (JTransforms
 * {@code realForwardFull}, unnormalised) → {@link WienerDftFilter} → either x = Re(IFFT2(F))/n, the pattern
 * (JTransforms {@code complexInverse} with scaling, which is the "/n"), for NCC; or the Hermitian half of the
 * filtered spectrum, which equals the R2C transform of that same pattern, for PCE (see {@link HalfSpectrum}).
 * Items are written in the {@link PrnuLayout} formats; all scratch lives in a caller-owned {@link PrnuWorkspace}.
 */
public final class PrnuExtractor {

    private PrnuExtractor() {
    }

    /**
     * Reads the GRAY item at {@code in.position()} and writes the item for {@code metric} at
     * {@code out.position()} (positions not moved).
     *
     * @return bytes written
     * @throws IllegalArgumentException when the input is not a GRAY item of the workspace's size
     * @throws BufferTooSmallException  when the item does not fit in {@code out}
     */
    public static long extract(String label, ByteBuffer in, ByteBuffer out, Metric metric, PrnuWorkspace ws) {
        PrnuLayout.check(in, PrnuLayout.KIND_GRAY, label);
        int h = PrnuLayout.height(in, in.position());
        int w = PrnuLayout.width(in, in.position());
        if (h != ws.height || w != ws.width) {
            throw new IllegalArgumentException(label + ": image is " + w + "x" + h + " but the workspace is for "
                    + ws.width + "x" + ws.height);
        }
        long need = PrnuLayout.itemBytes(metric, h, w);
        if (need > out.remaining()) {
            throw new BufferTooSmallException(label + ": " + metric + " item " + w + "x" + h, need, out.remaining());
        }
        floats(in, in.position() + PrnuLayout.HEADER_BYTES).get(ws.gray, 0, ws.pixels);
        filteredSpectrum(ws);
        int base = out.position();
        if (metric == Metric.PCE) {
            PrnuLayout.writeHeader(out, base, PrnuLayout.KIND_SPECTRUM, h, w);
            HalfSpectrum.hermitianPart(ws.spectrum, h, w, out, base + PrnuLayout.HEADER_BYTES);
        } else {
            PrnuLayout.writeHeader(out, base, PrnuLayout.KIND_PATTERN, h, w);
            patternFromSpectrum(ws, ws.gx);
            floats(out, base + PrnuLayout.HEADER_BYTES).put(ws.gx, 0, ws.pixels);
        }
        return need;
    }

    /** The pattern of a row-major gray image (array API, for tests and tools). */
    public static float[] pattern(float[] gray, PrnuWorkspace ws) {
        System.arraycopy(gray, 0, ws.gray, 0, ws.pixels);
        filteredSpectrum(ws);
        float[] out = new float[ws.pixels];
        patternFromSpectrum(ws, out);
        return out;
    }

    /** The R2C half spectrum of the pattern of a row-major gray image (array API, for tests and tools). */
    public static float[] halfSpectrum(float[] gray, PrnuWorkspace ws) {
        System.arraycopy(gray, 0, ws.gray, 0, ws.pixels);
        filteredSpectrum(ws);
        float[] half = new float[(int) (2 * HalfSpectrum.halfLength(ws.height, ws.width))];
        HalfSpectrum.hermitianPart(ws.spectrum, ws.height, ws.width, half);
        return half;
    }

    /** Steps 2–4 on {@code ws.gray}: leaves the Wiener-filtered full spectrum in {@code ws.spectrum}. */
    static void filteredSpectrum(PrnuWorkspace ws) {
        int h = ws.height;
        int w = ws.width;
        NoiseResidualFilter.apply(ws.gray, h, w, ws.gx, ws.gy, ws.spectrum);
        ZeroMeanTotal.apply(ws.spectrum, h, w, ws.columnSums);
        double sigma2 = WienerDftFilter.noiseVariance(ws.spectrum, ws.pixels);
        ws.fft.realForwardFull(ws.spectrum);
        WienerDftFilter.apply(ws.spectrum, h, w, sigma2, ws.summedArea);
    }

    /** x = Re(IFFT2(F))/n into {@code out[0, n)}; destroys the spectrum. */
    private static void patternFromSpectrum(PrnuWorkspace ws, float[] out) {
        ws.fft.complexInverse(ws.spectrum, true); // scale = true divides by n: this is the "/n"
        float[] z = ws.spectrum;
        for (int i = 0; i < ws.pixels; i++) {
            out[i] = z[2 * i];
        }
    }

    /** A float view at byte offset {@code at} in the buffer's own byte order. */
    private static java.nio.FloatBuffer floats(ByteBuffer buffer, int at) {
        ByteBuffer view = buffer.duplicate().order(buffer.order());
        view.limit(buffer.limit()).position(at);
        return view.slice().order(buffer.order()).asFloatBuffer();
    }
}
