package io.rocket.steal;

import io.rocket.core.RocketException;

/**
 * The most items whose pairs a run can track. A {@link PairSet} keeps the pair matrix as tiles in one table
 * ({@link PairSet#maxItems}: about 33 million items, or 23 million in both orientations), far beyond what the item
 * lists and caches of a run hold. A run tracks the pairs of all its items (not only those of its space) when it is a
 * cluster run (rank 0's finished pairs, recovery, the start plan), when its space is not every pair of one list (the
 * pairs outside it are marked done: {@code --against}, {@code --pairs}, unions) and with {@code --journal} or
 * {@code --store} (the pairs taken from earlier runs). A run of every pair of one list on one node without them
 * tracks none and has no such limit.
 *
 * <p>Such a run is refused before anything is opened, in one line that names the limit and the way around it,
 * rather than failing once its outputs exist.
 */
public final class PairLimit {
    private static final String STORE = "--store";

    private PairLimit() {
    }

    /**
     * The most items whose pairs a run can track.
     *
     * @param ordered whether both orientations of each pair are tracked
     * @return {@link PairSet#maxItems(boolean)}
     */
    public static int maxItems(boolean ordered) {
        return PairSet.maxItems(ordered);
    }

    /**
     * Refuses a run whose pairs it would have to track beyond {@link #maxItems}.
     *
     * @param space   the run's pair space, in the run's orientation
     * @param cluster whether it is a cluster run
     * @param log     the option of the run's journal or result store ({@code --journal}, {@code --store}, as
     *                {@code JournalOptions.option()} names it), or null without one
     * @throws RocketException naming the items, the limit, why the run tracks its pairs and the way around, in one
     *                         line
     */
    public static void check(PairSpace space, boolean cluster, String log) {
        boolean ordered = space.ordered();
        String why;
        if (cluster) {
            why = "a cluster run tracks them";
        } else if (!space.wholeTriangle()) {
            why = "a run of " + space.describe() + " tracks the pairs outside it";
        } else if (log != null) {
            why = log + " tracks them";
            ordered = ordered && !STORE.equals(log); // the store keeps a pair in the orientation it was computed
        } else {
            return;
        }
        int n = space.items();
        if (n <= maxItems(ordered)) {
            return;
        }
        throw new RocketException(String.format("%,d items%s are more than a run can track the pairs of, and %s: "
                        + "give at most %,d items a run (split the queries of --against over several runs), or run "
                        + "every pair of one list on one node without --store or --journal",
                n, ordered ? " in both orientations" : "", why, maxItems(ordered)));
    }
}
