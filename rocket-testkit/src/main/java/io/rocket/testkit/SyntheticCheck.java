package io.rocket.testkit;

import io.rocket.core.ResultSink;

import java.util.HashSet;
import java.util.Set;

/**
 * Checks a synthetic run as results arrive, against what the synthetic formula says it must deliver: every pair of
 * its space exactly once, each with {@code v(i) XOR v(j)}; with a reduction, exactly the pairs the reduction keeps of
 * those values. On the sim device, which touches no data, every result is 0: the check then expects 0 (a top-k
 * among equal scores is decided by the partner indices alone, so it is still exact).
 *
 * <p>The space is every pair i &lt; j of n items, or the first {@code queries} items against the others. Which pairs
 * arrived is kept as one bit per pair of the space in pages allocated as they fill, so a run of 10⁸ pairs takes
 * 12.5 MB whatever its item count.
 */
public final class SyntheticCheck implements ResultSink<Integer, Long> {
    private static final int PAGE_BITS = 1 << 26;

    private final long seed;
    private final int n;
    private final int queries;
    private final boolean values;
    private final Keep keep;
    private final long[][] pages;
    private final Set<Long> kept = new HashSet<>();
    private long distinct;
    private long duplicates;
    private long wrong;
    private long failed;
    private long count;

    /**
     * What a run keeps: with {@code topK} above 0, the pairs among the K best partners (largest score, then
     * smallest partner index) of either item, of those whose score lies in [min, max]; else every pair in the band.
     * Scores are the results as numbers, as the runtime's reductions take them.
     *
     * @param topK best partners kept per item; 0 for none
     * @param min  the smallest score kept
     * @param max  the largest score kept
     */
    public record Keep(int topK, double min, double max) {
        /** Every pair. */
        public static final Keep ALL = new Keep(0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);

        boolean reduces() {
            return topK > 0 || min > Double.NEGATIVE_INFINITY || max < Double.POSITIVE_INFINITY;
        }
    }

    /**
     * A check of every pair of n items, every result kept.
     *
     * @param seed        the run's seed
     * @param n           the items
     * @param checkValues whether the device computes results (false on sim, where every result is 0)
     */
    public SyntheticCheck(long seed, int n, boolean checkValues) {
        this(seed, n, 0, Keep.ALL, checkValues);
    }

    /**
     * A check of a run of every pair of n items, or of queries against references.
     *
     * @param seed        the run's seed
     * @param n           the items
     * @param queries     0 for every pair; else the first {@code queries} items against the others
     * @param keep        what the run's reduction keeps
     * @param checkValues whether the device computes results (false on sim, where every result is 0)
     */
    public SyntheticCheck(long seed, int n, int queries, Keep keep, boolean checkValues) {
        this.seed = seed;
        this.n = n;
        this.queries = queries;
        this.values = checkValues;
        this.keep = keep;
        this.pages = new long[(int) ((spacePairs() + PAGE_BITS - 1) / PAGE_BITS)][];
    }

    /** The pairs of the space. */
    private long spacePairs() {
        return queries == 0 ? (long) n * (n - 1) / 2 : (long) queries * (n - queries);
    }

    /** The bit of pair (i, j) of the space, or -1 when it is not one of its pairs. */
    private long bit(int i, int j) {
        if (i < 0 || i >= j || j >= n) {
            return -1;
        }
        if (queries > 0) {
            return i < queries && j >= queries ? (long) i * (n - queries) + (j - queries) : -1;
        }
        return (long) i * (2L * n - i - 1) / 2 + (j - i - 1);
    }

    private long expected(int i, int j) {
        return values ? SyntheticApp.expected(seed, i, j) : 0;
    }

    @Override
    public synchronized void accept(int i, int j, Integer left, Integer right, Long result) {
        if (mark(i, j) && result != expected(i, j)) {
            wrong++;
        }
        if (keep.reduces()) {
            kept.add((long) i << 32 | j);
        }
    }

    @Override
    public synchronized void failed(int i, int j, Integer left, Integer right, Throwable error) {
        mark(i, j);
        failed++;
    }

    /** Marks the pair; false (and counted wrong) when it is not a pair of the space. */
    private boolean mark(int i, int j) {
        long bit = bit(i, j);
        if (bit < 0) {
            wrong++;
            return false;
        }
        long[] page = pages[(int) (bit / PAGE_BITS)];
        if (page == null) {
            page = new long[PAGE_BITS / 64];
            pages[(int) (bit / PAGE_BITS)] = page;
        }
        int inPage = (int) (bit % PAGE_BITS);
        long mask = 1L << inPage;
        if ((page[inPage >>> 6] & mask) != 0) {
            duplicates++;
        } else {
            page[inPage >>> 6] |= mask;
            distinct++;
        }
        count++;
        return true;
    }

    /** A one-line verdict, or null when every pair arrived exactly once with the right value. */
    public synchronized String problem() {
        if (keep.reduces()) {
            Set<Long> expected = SyntheticKept.of(n, queries, keep, this::expected);
            long missing = expected.stream().filter(p -> !kept.contains(p)).count();
            long extra = kept.stream().filter(p -> !expected.contains(p)).count();
            if (missing > 0 || extra > 0 || duplicates > 0 || wrong > 0) {
                return String.format("check failed: %d of %d kept pairs seen, %d not kept but delivered, "
                        + "%d duplicates, %d wrong results", expected.size() - missing, expected.size(), extra,
                        duplicates, wrong);
            }
            return null;
        }
        long expected = spacePairs();
        if (distinct != expected || duplicates > 0 || wrong > 0) {
            return String.format("check failed: %d of %d pairs seen, %d duplicates, %d wrong results",
                    distinct, expected, duplicates, wrong);
        }
        return null;
    }

    public synchronized long count() {
        return count;
    }

    public synchronized long failedCount() {
        return failed;
    }
}
