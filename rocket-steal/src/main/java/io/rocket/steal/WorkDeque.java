package io.rocket.steal;

import java.util.ArrayDeque;
import java.util.List;

/**
 * One worker's regions. The owner pushes and pops at the bottom (deepest, most local work first); thieves take
 * from the top, where the largest regions are. Regions are coarse, so a plain lock is cheap enough.
 */
public final class WorkDeque {
    private final ArrayDeque<Region> regions = new ArrayDeque<>();

    public synchronized void push(Region region) {
        regions.addLast(region);
    }

    /** Puts a region back at the top (where thieves take from), keeping it among the largest. */
    public synchronized void pushTop(Region region) {
        regions.addFirst(region);
    }

    public synchronized int size() {
        return regions.size();
    }

    /** The owner's next region (deepest), or null. */
    public synchronized Region pop() {
        return regions.pollLast();
    }

    /** The region the owner pops next, left in place; or null. */
    public synchronized Region peekNext() {
        return regions.peekLast();
    }

    /** A thief's take: the largest (oldest) region, or null. */
    public synchronized Region steal() {
        return regions.pollFirst();
    }

    /** Pairs in the region a thief would take now, 0 when empty. */
    public synchronized long topPairs() {
        Region top = regions.peekFirst();
        return top == null ? 0 : top.pairs();
    }

    /** The queued regions, top first. */
    public synchronized List<Region> regions() {
        return List.copyOf(regions);
    }

    public synchronized boolean isEmpty() {
        return regions.isEmpty();
    }
}
