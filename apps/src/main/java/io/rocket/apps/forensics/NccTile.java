package io.rocket.apps.forensics;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.Tile;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The NCC of every pair of a tile of PATTERN items on a cpu, cache-blocked: the items are walked once, a block of
 * {@link #BLOCK} pixels at a time, and each block of every tile item is compared with its partners while it is in
 * the core's cache. A pair job reads both of its items from memory for itself, twice (means, then products); a tile
 * of r rows against c columns reads each of its r + c items once for all r·c pairs.
 *
 * <p>As {@link NccComparator}, NCC = Σ(x−x̄)(y−ȳ) / sqrt(Σ(x−x̄)² Σ(y−ȳ)²), with nothing lost to cancellation for
 * an item far from zero-mean: the first time an item is in a tile, a pass of its own finds its mean and spread; an
 * item whose mean is more than {@link #CENTRE_ABOVE} of its standard deviation is then centred block by block as it
 * is read, while for the others (patterns are nearly zero-mean after {@link ZeroMeanTotal}) the mean's share of Σxy,
 * n·x̄·ȳ, is taken out afterwards. Within a block the sums run in float with four independent accumulators (two
 * pairs of one row share a pass over the row's block); each block's sums are added in double, so a score differs
 * from {@link NccComparator}'s double sums by float rounding over a block (about 1e-7 of the score's scale).
 *
 * <p>One instance per cpu device (its kernel thread only); the block arrays grow to the largest tile seen and are
 * reused: no allocation per pair. An item's mean and Σ(x−x̄)² are kept by key after its first tile (two numbers an
 * item), so later tiles only read it for its pairs.
 */
final class NccTile {
    /** Pixels per block: 8 KB of each item, so a leaf's 32 items' blocks (256 KB) stay in a core's L2. */
    static final int BLOCK = 2048;
    /** Most items whose sums are kept. */
    static final int KNOWN_ITEMS = 1 << 16;
    /**
     * An item whose mean is above this fraction of its standard deviation is centred block by block; below it the
     * mean's share of Σxy is taken out afterwards (n·x̄·ȳ), which then cancels nothing that matters.
     */
    static final double CENTRE_ABOVE = 1e-2;

    private float[][] blocks = new float[0][];
    private FloatBuffer[] views = new FloatBuffer[0];
    private double[] means = new double[0];
    private double[] squares = new double[0];
    private boolean[] centred = new boolean[0];
    private double[] dots = new double[0];
    /**
     * The mean and Σ(x−x̄)² of the items seen, by key: an item is in many tiles, and its sums are most of the work of
     * reading it.
     * Cleared when it reaches {@link #KNOWN_ITEMS} (a run's items, or the most recent of them).
     */
    private final Map<Path, double[]> stats = new HashMap<>();

    /** Scores every pair of {@code tile} into its result slot ({@link ForensicsPipeline#RESULT_BYTES}). */
    void compare(Tile<Path> tile) {
        int items = tile.items();
        int pairs = tile.pairs();
        grow(items, pairs);
        int n = -1;
        int h = 0;
        int w = 0;
        for (int t = 0; t < items; t++) {
            ByteBuffer item = tile.item(t).byteBuffer();
            PrnuLayout.check(item, PrnuLayout.KIND_PATTERN, "item " + tile.key(t).getFileName());
            int ih = PrnuLayout.height(item, 0);
            int iw = PrnuLayout.width(item, 0);
            if (n < 0) {
                h = ih;
                w = iw;
                n = ih * iw;
            } else if (ih != h || iw != w) {
                throw new IllegalArgumentException("patterns of different sizes in one tile: " + w + "x" + h + " and "
                        + iw + "x" + ih + " (" + tile.key(t).getFileName() + ")");
            }
            views[t] = item.duplicate().order(item.order()).position(PrnuLayout.HEADER_BYTES).slice()
                    .order(item.order()).asFloatBuffer();
            double[] seen = stats.get(tile.key(t));
            if (seen == null) {
                seen = moments(views[t], blocks[t], n);
                if (stats.size() >= KNOWN_ITEMS) {
                    stats.clear();
                }
                stats.put(tile.key(t), seen);
            }
            means[t] = seen[0];
            squares[t] = seen[1];
            centred[t] = seen[2] != 0;
        }
        for (int p = 0; p < pairs; p++) {
            dots[p] = 0;
        }
        for (int from = 0; from < n; from += BLOCK) {
            int length = Math.min(BLOCK, n - from);
            for (int t = 0; t < items; t++) {
                float[] x = blocks[t];
                views[t].get(from, x, 0, length);
                if (centred[t]) {
                    centre(x, length, (float) means[t]);
                }
            }
            int p = 0;
            while (p < pairs) {
                int a = tile.left(p);
                if (p + 1 < pairs && tile.left(p + 1) == a) {
                    // Two pairs of one row: the row's block is read once for both (half the loads, twice the
                    // independent sums in flight).
                    dot2(blocks[a], blocks[tile.right(p)], blocks[tile.right(p + 1)], length, dots, p);
                    p += 2;
                } else {
                    dots[p] += dot(blocks[a], blocks[tile.right(p)], length);
                    p++;
                }
            }
        }
        for (int p = 0; p < pairs; p++) {
            int a = tile.left(p);
            int b = tile.right(p);
            // What the blocks summed is Σ(x−x̄)(y−ȳ) + n·r(x)·r(y), with r the mean left in an uncentred item.
            double rx = centred[a] ? 0 : means[a];
            double ry = centred[b] ? 0 : means[b];
            double denominator = Math.sqrt(squares[a] * squares[b]);
            DeviceBuffer result = tile.result(p);
            result.byteBuffer().putDouble(0, denominator > 0 ? (dots[p] - n * rx * ry) / denominator : 0.0);
            result.length(ForensicsPipeline.RESULT_BYTES);
        }
        for (int t = 0; t < items; t++) {
            views[t] = null; // the items' memory is the cache's again
        }
    }

    private void grow(int items, int pairs) {
        if (blocks.length < items) {
            float[][] more = new float[items][];
            System.arraycopy(blocks, 0, more, 0, blocks.length);
            for (int t = blocks.length; t < items; t++) {
                more[t] = new float[BLOCK];
            }
            blocks = more;
            views = new FloatBuffer[items];
            means = new double[items];
            squares = new double[items];
            centred = new boolean[items];
        }
        if (dots.length < pairs) {
            dots = new double[pairs];
        }
    }

    /**
     * An item's mean x̄, Σ(x−x̄)² and whether its blocks are centred before use (1) or not (0), read a block at a
     * time through {@code scratch}: one pass for Σx and Σx², and, for an item whose mean is more than
     * {@link #CENTRE_ABOVE} of its spread, a second for Σ(x−x̄)², which Σx² − n·x̄² would lose to cancellation.
     * Patterns are nearly zero-mean after {@link ZeroMeanTotal}, so they take the one pass and are never centred.
     */
    private static double[] moments(FloatBuffer values, float[] scratch, int n) {
        double total = 0;
        double square = 0;
        for (int from = 0; from < n; from += BLOCK) {
            int length = Math.min(BLOCK, n - from);
            values.get(from, scratch, 0, length);
            total += sum(scratch, length);
            square += dot(scratch, scratch, length);
        }
        double mean = total / n;
        double spread = Math.max(0, square - n * mean * mean);
        if (mean * mean <= CENTRE_ABOVE * CENTRE_ABOVE * spread / n) {
            return new double[] {mean, spread, 0};
        }
        double centred = 0;
        for (int from = 0; from < n; from += BLOCK) {
            int length = Math.min(BLOCK, n - from);
            values.get(from, scratch, 0, length);
            centre(scratch, length, (float) mean);
            centred += dot(scratch, scratch, length);
        }
        return new double[] {mean, centred, 1};
    }

    /** Subtracts {@code mean} from the block's values. */
    private static void centre(float[] x, int length, float mean) {
        for (int i = 0; i < length; i++) {
            x[i] -= mean;
        }
    }

    /** Σ x[i] in float, four accumulators. */
    static double sum(float[] x, int length) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int i = 0;
        for (; i + 3 < length; i += 4) {
            s0 += x[i];
            s1 += x[i + 1];
            s2 += x[i + 2];
            s3 += x[i + 3];
        }
        for (; i < length; i++) {
            s0 += x[i];
        }
        return (double) s0 + s1 + s2 + s3;
    }

    /** Adds Σ x[i]·y[i] to {@code out[at]} and Σ x[i]·z[i] to {@code out[at + 1]}, in float, four accumulators each. */
    static void dot2(float[] x, float[] y, float[] z, int length, double[] out, int at) {
        float y0 = 0;
        float y1 = 0;
        float y2 = 0;
        float y3 = 0;
        float z0 = 0;
        float z1 = 0;
        float z2 = 0;
        float z3 = 0;
        int i = 0;
        for (; i + 3 < length; i += 4) {
            float x0 = x[i];
            float x1 = x[i + 1];
            float x2 = x[i + 2];
            float x3 = x[i + 3];
            y0 += x0 * y[i];
            y1 += x1 * y[i + 1];
            y2 += x2 * y[i + 2];
            y3 += x3 * y[i + 3];
            z0 += x0 * z[i];
            z1 += x1 * z[i + 1];
            z2 += x2 * z[i + 2];
            z3 += x3 * z[i + 3];
        }
        for (; i < length; i++) {
            y0 += x[i] * y[i];
            z0 += x[i] * z[i];
        }
        out[at] += (double) y0 + y1 + y2 + y3;
        out[at + 1] += (double) z0 + z1 + z2 + z3;
    }

    /** Σ x[i]·y[i] in float, four accumulators. */
    static double dot(float[] x, float[] y, int length) {
        float s0 = 0;
        float s1 = 0;
        float s2 = 0;
        float s3 = 0;
        int i = 0;
        for (; i + 3 < length; i += 4) {
            s0 += x[i] * y[i];
            s1 += x[i + 1] * y[i + 1];
            s2 += x[i + 2] * y[i + 2];
            s3 += x[i + 3] * y[i + 3];
        }
        for (; i < length; i++) {
            s0 += x[i] * y[i];
        }
        return (double) s0 + s1 + s2 + s3;
    }
}
