package io.rocket.steal;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The parts of a node's start share that no worker has begun yet, in curve order. Workers take from the front, so
 * the node walks its share window by window; a node that is behind lends its front part to one that is ahead (so
 * the cluster stays in the same windows); a thief at the end of the run takes from the back, the work furthest away.
 * The window of the front part is how far along the curve the node is.
 */
public final class Backlog {
    /** {@link #position()} once every part has been begun or lent. */
    public static final int DONE = Integer.MAX_VALUE;

    private final ArrayDeque<StartShares.Part> parts = new ArrayDeque<>();
    /** The window of the part {@link #takeFront(BandOrder)} returned last, -1 before the first. */
    private int takenWindow = -1;

    synchronized void addAll(List<StartShares.Part> share) {
        for (StartShares.Part part : share) {
            if (part.region().hasPairs()) {
                parts.addLast(part);
            }
        }
    }

    /** The next part in curve order, or null. */
    synchronized Region takeFront() {
        StartShares.Part part = parts.pollFirst();
        return part == null ? null : part.region();
    }

    /**
     * The next part in curve order, or null; a band is first laid out as {@code bands} says and its leaves put at the
     * front, so the node's workers all take the same band's leaves, one after the other, and share its rows in L2.
     */
    synchronized Region takeFront(BandOrder bands) {
        StartShares.Part part = parts.pollFirst();
        if (part != null) {
            takenWindow = part.window();
        }
        if (part == null || !part.region().isBand()) {
            return part == null ? null : part.region();
        }
        List<Region> leaves = bands.leaves(part.region());
        for (int k = leaves.size() - 1; k > 0; k--) {
            parts.addFirst(new StartShares.Part(leaves.get(k), part.window()));
        }
        return leaves.isEmpty() ? null : leaves.get(0);
    }

    /** The window of the part {@link #takeFront(BandOrder)} returned last, -1 before the first. */
    synchronized int takenWindow() {
        return takenWindow;
    }

    /** The next part in curve order, left in place; or null. */
    synchronized Region peekFront() {
        StartShares.Part part = parts.peekFirst();
        return part == null ? null : part.region();
    }

    /** The last part in curve order, or null. */
    synchronized Region takeBack() {
        StartShares.Part part = parts.pollLast();
        return part == null ? null : part.region();
    }

    /** The parts not yet begun, as regions in curve order. */
    synchronized List<Region> regions() {
        return parts.stream().map(StartShares.Part::region).toList();
    }

    synchronized boolean isEmpty() {
        return parts.isEmpty();
    }

    /** The window of the next part to begin, or {@link #DONE}. */
    synchronized int position() {
        StartShares.Part part = parts.peekFirst();
        return part == null ? DONE : part.window();
    }
}
