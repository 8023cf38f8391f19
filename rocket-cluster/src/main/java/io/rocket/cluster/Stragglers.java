package io.rocket.cluster;

/**
 * How a cluster run copes with nodes that compute at different speeds (a straggler, older GPUs, a busy host).
 * Both parts are on by default; either may be turned off on any node without the others noticing, because each is
 * decided by the node that acts: the victim scales what it gives, the idle node asks for duplicates.
 *
 * @param rateScaledSteals a victim gives an idle node a share of its unbegun work in proportion to their measured
 *                         rates (pairs/s), so a fast thief takes much and a slow one little; off: one region per
 *                         steal, whatever the rates
 * @param duplicate        end-game duplication: once nothing is left to steal, an idle node asks a slower node for
 *                         the pairs it still has in flight and runs them too; the first result wins at rank 0
 */
public record Stragglers(boolean rateScaledSteals, boolean duplicate) {

    /** Both on: the default. */
    public static final Stragglers DEFAULT = new Stragglers(true, true);

    /** Both off: equal-sized steals and no duplication, as before rates were measured. */
    public static final Stragglers OFF = new Stragglers(false, false);
}
