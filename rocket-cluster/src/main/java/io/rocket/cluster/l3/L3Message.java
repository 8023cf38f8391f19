package io.rocket.cluster.l3;

/**
 * An L3 control message. {@code REQUEST} goes from the requester to the item's contact node; {@code FORWARD}
 * carries it down the candidate list; {@code MISS} tells the requester nobody had the item; {@code DROP} tells the
 * contact that the requester evicted the item it was listed for with {@code requestId}, so the contact takes that
 * listing (and only that one: a newer request of the same node may be listed meanwhile) off the item's list.
 *
 * <p>Candidates are named by the id of the request with which they last asked the contact for the item; the rank is
 * part of the id ({@link #rankOf}). The id tells a candidate whether the fetch it has under way is that older one,
 * which it may wait for, or a newer one, which it must not (see {@link DistributedCache}).
 *
 * @param kind       REQUEST, FORWARD, MISS or DROP
 * @param requestId  the requester's id for the fetch
 * @param item       the item index
 * @param requester  the rank that wants the item
 * @param hop        1 for the first candidate asked, 2 for the next, ...
 * @param candidates FORWARD: the candidates still to ask, the addressee first; else empty
 */
public record L3Message(Kind kind, long requestId, int item, int requester, int hop, long[] candidates) {

    /** Bits of a request id below the requester's rank. */
    static final int RANK_SHIFT = 48;

    /** The message kinds. */
    public enum Kind { REQUEST, FORWARD, MISS, DROP }

    /** The rank that made a request. */
    public static int rankOf(long requestId) {
        return (int) (requestId >>> RANK_SHIFT);
    }
}
