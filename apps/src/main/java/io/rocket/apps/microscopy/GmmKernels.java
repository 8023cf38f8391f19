package io.rocket.apps.microscopy;

/**
 * The two pairwise sums of registration on the CPU, the reference that {@code microscopy.cu} must match. With the
 * rigid transform T(x) = R(θ)x + t applied to the model points x_i and scene points y_j (both centred):
 *
 * <ul>
 *   <li>GMM-L2 cost C(t, θ) = (1/(mn)) Σ_i Σ_j exp(−‖T(x_i) − y_j‖² / s²) and its gradient in (tx, ty, θ):
 *       with d = T(x_i) − y_j and e = exp(−‖d‖²/s²), ∂C/∂t = −(2/(s²mn)) Σ e·d and
 *       ∂C/∂θ = −(2/(s²mn)) Σ e·(d · R′(θ)x_i), R′ = dR/dθ;</li>
 *   <li>the Bhattacharyya cross term S(t, θ) = Σ_i Σ_j exp(−‖T(x_i) − y_j‖² / (σ_i² + σ_j²)), σ the localization
 *       precision as a standard deviation.</li>
 * </ul>
 *
 * Terms whose exponent is below −{@value #CUTOFF} (a relative weight under 2.4·10⁻¹⁶ of a coincident pair) are
 * skipped without calling exp; the CUDA kernels apply the same cut.
 */
final class GmmKernels {
    /** Exponents below −CUTOFF count as zero. */
    static final double CUTOFF = 36.0;

    private GmmKernels() {
    }

    /**
     * The cost C and, into {@code gradient[0..2]}, ∂C/∂tx, ∂C/∂ty, ∂C/∂θ.
     *
     * @param scale the GMM scale s (nm)
     */
    static double costAndGradient(PointSet model, PointSet scene, double tx, double ty, double theta, double scale,
                                  double[] gradient) {
        double c = Math.cos(theta);
        double s = Math.sin(theta);
        double invS2 = 1.0 / (scale * scale);
        double[] sx = scene.x;
        double[] sy = scene.y;
        int n = scene.n;
        double sum = 0;
        double gx = 0;
        double gy = 0;
        double gt = 0;
        for (int i = 0; i < model.n; i++) {
            double mx = model.x[i];
            double my = model.y[i];
            double qx = c * mx - s * my + tx;
            double qy = s * mx + c * my + ty;
            double e0 = 0;
            double ex = 0;
            double ey = 0;
            for (int j = 0; j < n; j++) {
                double dx = qx - sx[j];
                double dy = qy - sy[j];
                double a = (dx * dx + dy * dy) * invS2;
                if (a < CUTOFF) {
                    double e = Math.exp(-a);
                    e0 += e;
                    ex += e * dx;
                    ey += e * dy;
                }
            }
            // d · R'x_i with R'x_i = (−s·mx − c·my, c·mx − s·my), summed over j through ex, ey.
            sum += e0;
            gx += ex;
            gy += ey;
            gt += ex * (-s * mx - c * my) + ey * (c * mx - s * my);
        }
        double norm = 1.0 / ((double) model.n * n);
        double g = -2.0 * invS2 * norm;
        gradient[0] = g * gx;
        gradient[1] = g * gy;
        gradient[2] = g * gt;
        return sum * norm;
    }

    /**
     * The cost C of two {@link BinnedPoints}, each component standing for its weight's worth of points:
     * C = (1/(W_m W_n)) Σ_k Σ_l w_k w_l exp(−‖T(u_k) − v_l‖²/s²), and its gradient into {@code gradient[0..2]}
     * (the same formulas as {@link #costAndGradient}, weighted).
     */
    static double costAndGradient(BinnedPoints model, BinnedPoints scene, double tx, double ty, double theta,
                                  double scale, double[] gradient) {
        double c = Math.cos(theta);
        double s = Math.sin(theta);
        double invS2 = 1.0 / (scale * scale);
        double[] sx = scene.x;
        double[] sy = scene.y;
        double[] sw = scene.w;
        int n = scene.n;
        double sum = 0;
        double gx = 0;
        double gy = 0;
        double gt = 0;
        for (int i = 0; i < model.n; i++) {
            double mx = model.x[i];
            double my = model.y[i];
            double mw = model.w[i];
            double qx = c * mx - s * my + tx;
            double qy = s * mx + c * my + ty;
            double e0 = 0;
            double ex = 0;
            double ey = 0;
            for (int j = 0; j < n; j++) {
                double dx = qx - sx[j];
                double dy = qy - sy[j];
                double a = (dx * dx + dy * dy) * invS2;
                if (a < CUTOFF) {
                    double e = sw[j] * Math.exp(-a);
                    e0 += e;
                    ex += e * dx;
                    ey += e * dy;
                }
            }
            sum += mw * e0;
            gx += mw * ex;
            gy += mw * ey;
            gt += mw * (ex * (-s * mx - c * my) + ey * (c * mx - s * my));
        }
        double norm = 1.0 / (model.total * scene.total);
        double g = -2.0 * invS2 * norm;
        gradient[0] = g * gx;
        gradient[1] = g * gy;
        gradient[2] = g * gt;
        return sum * norm;
    }

    /** The Bhattacharyya cross term S at (tx, ty, θ). */
    static double score(PointSet model, PointSet scene, double tx, double ty, double theta) {
        double c = Math.cos(theta);
        double s = Math.sin(theta);
        double[] sx = scene.x;
        double[] sy = scene.y;
        double[] ss = scene.s2;
        int n = scene.n;
        double total = 0;
        for (int i = 0; i < model.n; i++) {
            double mx = model.x[i];
            double my = model.y[i];
            double qx = c * mx - s * my + tx;
            double qy = s * mx + c * my + ty;
            double ms = model.s2[i];
            double row = 0;
            for (int j = 0; j < n; j++) {
                double dx = qx - sx[j];
                double dy = qy - sy[j];
                double a = (dx * dx + dy * dy) / (ms + ss[j]);
                if (a < CUTOFF) {
                    row += Math.exp(-a);
                }
            }
            total += row;
        }
        return total;
    }
}
