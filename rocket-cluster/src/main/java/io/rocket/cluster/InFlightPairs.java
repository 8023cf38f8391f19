package io.rocket.cluster;

import io.rocket.steal.Region;
import io.rocket.steal.WorkScheduler;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Which pairs this node still has in flight, for end-game duplication: per device, the pairs handed to the
 * pipeline and those it finished, and the last pair handed over. A worker submits a leaf's pairs row by row and the
 * device finishes them about in that order, so the unfinished ones are the last {@code submitted - finished} pairs
 * submitted plus the rest of the leaf the worker is on ({@link WorkScheduler#leavesInFlight}); the oldest of those
 * may lie in the leaf before. Counting is two atomic adds and a store per pair, with no allocation. A pair the
 * estimate leaves out (one finished out of order) is still computed here; duplication only speeds the end up.
 *
 * <p>Each leaf is lent for duplication once, so idle nodes asking one after the other duplicate different leaves.
 */
public final class InFlightPairs {
    private final AtomicLongArray submitted;
    private final AtomicLongArray finished;
    /** Per device, the last pair submitted as {@code i << 32 | j}, or -1 before the first. */
    private final AtomicLongArray last;
    /** Leaves already lent for duplication (kept while they are among the leaves in flight). */
    private final Set<Region> lent = new HashSet<>();

    public InFlightPairs(int devices) {
        submitted = new AtomicLongArray(devices);
        finished = new AtomicLongArray(devices);
        last = new AtomicLongArray(devices);
        for (int d = 0; d < devices; d++) {
            last.set(d, -1);
        }
    }

    /** {@code device}'s worker hands pair (i, j) to the pipeline (called before it may wait for a job slot). */
    public void submitted(int device, int i, int j) {
        last.set(device, (long) i << 32 | j);
        submitted.incrementAndGet(device);
    }

    /** The pipeline finished a pair of {@code device} (computed or failed). */
    public void finished(int device) {
        finished.incrementAndGet(device);
    }

    /**
     * The unfinished pairs of the oldest leaf in flight not lent before, as regions, and marks the leaf lent; empty
     * when there is none. Leaves submitted before the current one of each worker come first: they are the oldest.
     */
    synchronized List<Region> lendOldest(WorkScheduler scheduler) {
        List<Unit> older = new ArrayList<>();
        List<Unit> current = new ArrayList<>();
        Set<Region> inFlight = new HashSet<>();
        for (int d = 0; d < submitted.length(); d++) {
            List<Region> leaves = scheduler.leavesInFlight(d);
            inFlight.addAll(leaves);
            if (leaves.isEmpty()) {
                continue;
            }
            Region leaf = leaves.get(0);
            long pipeline = Math.max(0, submitted.get(d) - finished.get(d));
            long packed = last.get(d);
            int i = (int) (packed >>> 32);
            int j = (int) packed;
            long index = packed >= 0 && contains(leaf, i, j) ? index(leaf, i, j) : -1;
            // First unfinished pair of the current leaf; negative: of the one before. A band leaf run bottom row
            // first does not finish in this order, so all of it counts as unfinished.
            long from = leaf.rowsDescending() ? 0 : index + 1 - pipeline;
            if (from < 0 && leaves.size() > 1) {
                Region before = leaves.get(1);
                older.add(new Unit(before, suffix(before, Math.max(0, before.pairs() + from))));
            }
            current.add(new Unit(leaf, suffix(leaf, Math.max(0, from))));
        }
        lent.retainAll(inFlight);
        older.addAll(current);
        for (Unit unit : older) {
            if (!unit.unfinished().isEmpty() && lent.add(unit.leaf())) {
                return unit.unfinished();
            }
        }
        return List.of();
    }

    /** A leaf in flight and its pairs not finished yet. */
    private record Unit(Region leaf, List<Region> unfinished) {
    }

    private static boolean contains(Region r, int i, int j) {
        return i >= r.r0() && i < r.r1() && j >= r.c0() && j < r.c1() && i < j;
    }

    /** Pairs of row i in {@code r} (those with j &gt; i). */
    private static long rowPairs(Region r, int i) {
        return Math.max(0, r.c1() - Math.max(r.c0(), i + 1));
    }

    /** The position of (i, j) among the pairs of {@code r} in the order a worker submits them (row by row). */
    static long index(Region r, int i, int j) {
        long index = 0;
        for (int row = r.r0(); row < i; row++) {
            index += rowPairs(r, row);
        }
        return index + j - Math.max(r.c0(), i + 1);
    }

    /** The pairs of {@code r} from position {@code from} on (submission order), as at most two regions. */
    static List<Region> suffix(Region r, long from) {
        List<Region> out = new ArrayList<>(2);
        long skip = from;
        for (int row = r.r0(); row < r.r1(); row++) {
            long inRow = rowPairs(r, row);
            if (skip < inRow) {
                int first = (int) (Math.max(r.c0(), row + 1) + skip);
                if (skip > 0) {
                    out.add(new Region(row, row + 1, first, r.c1(), r.curve()));
                    row++;
                }
                Region rest = new Region(row, r.r1(), r.c0(), r.c1(), r.curve());
                if (row < r.r1() && rest.hasPairs()) {
                    out.add(rest);
                }
                return out;
            }
            skip -= inRow;
        }
        return out;
    }
}
