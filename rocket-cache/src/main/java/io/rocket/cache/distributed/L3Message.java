package io.rocket.cache.distributed;

/**
 * An L3 control message. {@code REQUEST} goes from the requester to the item's contact node; {@code FORWARD}
 * carries it down the candidate list ({@code candidates} are the ranks still to try); {@code MISS} tells the
 * requester nobody had the item.
 *
 * @param kind       REQUEST, FORWARD or MISS
 * @param requestId  the requester's id for the fetch
 * @param item       the item index
 * @param requester  the rank that wants the item
 * @param hop        1 for the first candidate asked, 2 for the next, ...
 * @param candidates ranks still to ask after this one
 */
public record L3Message(Kind kind, long requestId, int item, int requester, int hop, int[] candidates) {

    /** The message kinds. */
    public enum Kind { REQUEST, FORWARD, MISS }
}
