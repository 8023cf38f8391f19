package io.rocket.apps.microscopy;

import java.util.ArrayList;
import java.util.List;

/**
 * The binding sites of the generated particles: 37 sites on a 5 nm grid, at least 20 nm apart, scattered
 * irregularly over 140 × 120 nm and centred on their centroid (a fixed pattern drawn once with a seeded random
 * choice; no rotation by 10°–350° maps more than 7 sites within 5 nm of sites, and no mirror image matches it). The rotation
 * between two particles is thus defined over the whole circle (a ring of 8 would leave it ambiguous modulo 45°).
 * It is spread in two dimensions and its sites stand apart at the localization precision on purpose: a logo drawn
 * with long strokes of sites 5–10 nm apart (tried first) blurs into a few bars that slide along themselves, and
 * its pairwise rotations came out 2–5° off even at full labelling; a random pattern with sites 14 nm apart was
 * nearly a uniform blur at σ up to 10 nm, and wrong rotations overlapped better than the true one for one pair in
 * four at dol 0.7.
 */
public final class Template {
    /** Grid pitch (nm). */
    public static final double PITCH = 5.0;
    private static final String[] ROWS = {
            "....o............o.......o.....o.........",
            "..........o.............................o",
            ".........................................",
            ".........................................",
            "o........................................",
            ".........................................",
            "................o.............o..........",
            ".......o.................................",
            ".........................................",
            ".........................o.........o.....",
            ".........................................",
            ".o.......................................",
            ".........................................",
            "...............................o........o",
            "..................o......................",
            "............o............o...............",
            ".........................................",
            "..o......................................",
            ".........................................",
            "................................o.......o",
            "....................o....................",
            ".........................................",
            "............o.............o..............",
            ".........................................",
            "..o......................................",
            ".................o.............o.......o.",
            "........o................................",
            ".........................................",
            ".........................................",
            "...........................o.............",
            ".........................................",
            ".o..........o......o.....................",
            "........................................o",
            ".................................o.......",
            "......o.................o................",
    };

    private final double[] x;
    private final double[] y;

    private Template(double[] x, double[] y) {
        this.x = x;
        this.y = y;
    }

    /** The default template. */
    public static Template standard() {
        List<double[]> sites = new ArrayList<>();
        for (int r = 0; r < ROWS.length; r++) {
            for (int c = 0; c < ROWS[r].length(); c++) {
                if (ROWS[r].charAt(c) == 'o') {
                    // Row 0 is the top: y grows upwards.
                    sites.add(new double[]{c * PITCH, (ROWS.length - 1 - r) * PITCH});
                }
            }
        }
        return centred(sites);
    }

    /** A template of exactly the given sites (nm), not moved (as read back from {@code template.tsv}). */
    public static Template exact(double[][] sites) {
        double[] x = new double[sites.length];
        double[] y = new double[sites.length];
        for (int k = 0; k < sites.length; k++) {
            x[k] = sites[k][0];
            y[k] = sites[k][1];
        }
        return new Template(x, y);
    }

    /** A template of the given sites (nm), centred on their centroid. */
    public static Template of(double[][] sites) {
        return centred(List.of(sites));
    }

    private static Template centred(List<double[]> sites) {
        double cx = 0;
        double cy = 0;
        for (double[] s : sites) {
            cx += s[0];
            cy += s[1];
        }
        cx /= sites.size();
        cy /= sites.size();
        double[] x = new double[sites.size()];
        double[] y = new double[sites.size()];
        for (int k = 0; k < x.length; k++) {
            x[k] = sites.get(k)[0] - cx;
            y[k] = sites.get(k)[1] - cy;
        }
        return new Template(x, y);
    }

    public int size() {
        return x.length;
    }

    public double x(int k) {
        return x[k];
    }

    public double y(int k) {
        return y[k];
    }

    /** The distance (nm) from (px, py) to the nearest site. */
    public double nearestDistance(double px, double py) {
        double best = Double.POSITIVE_INFINITY;
        for (int k = 0; k < x.length; k++) {
            double dx = px - x[k];
            double dy = py - y[k];
            best = Math.min(best, dx * dx + dy * dy);
        }
        return Math.sqrt(best);
    }
}
