package io.rocket.cluster;

import io.rocket.steal.Region;
import io.rocket.steal.StartShares;
import io.rocket.steal.WorkScheduler;

import java.util.ArrayList;
import java.util.List;

/**
 * A victim's rate-scaled answer to a steal: of the work it has not begun, it gives the thief the share that makes
 * both finish together if each kept its measured rate, {@code thief / (thief + victim)}. A node four times faster
 * than its victim takes four fifths of the victim's work in one steal; a node four times slower takes a fifth, so a
 * straggler never walks off with a large region at the end of the run. The share is taken the way an unscaled steal
 * takes one region ({@link WorkScheduler#stealForRemote}: the far end of the share, else the largest queued regions),
 * region after region, and the last one is cut along the curve when it overshoots, its earlier pieces staying here.
 */
final class StealShare {
    /** Most pieces the overshooting region is cut into: fine enough for a tenth of a region, cheap to cut. */
    private static final int MAX_PIECES = 256;

    private StealShare() {
    }

    /** Pairs to give a thief with rate {@code thief} out of {@code unbegun}, by a victim with rate {@code own}. */
    static long target(long unbegun, double thief, double own) {
        return unbegun <= 0 ? 0 : Math.max(1, (long) Math.ceil(unbegun * thief / (thief + own)));
    }

    /**
     * Takes about {@code target} pairs of {@code scheduler}'s unbegun work for a thief (at least one region when
     * there is any), leaving the rest with this node.
     */
    static List<Region> take(WorkScheduler scheduler, long target, int tileSize) {
        List<Region> given = new ArrayList<>();
        long pairs = 0;
        while (pairs < target) {
            List<Region> more = scheduler.stealForRemote();
            if (more.isEmpty()) {
                break;
            }
            for (Region region : more) {
                given.add(region);
                pairs += region.pairs();
            }
        }
        long excess = pairs - target;
        if (given.isEmpty() || excess <= 0) {
            return given;
        }
        // Cut the largest region and keep its first pieces (nearest the work this node runs next) up to the excess.
        int largest = 0;
        for (int k = 1; k < given.size(); k++) {
            if (given.get(k).pairs() > given.get(largest).pairs()) {
                largest = k;
            }
        }
        Region cut = given.get(largest);
        long wanted = Math.max(1, cut.pairs() - excess);
        int pieces = (int) Math.min(MAX_PIECES, Math.max(4, 4 * cut.pairs() / wanted));
        List<Region> parts = StartShares.cut(cut, tileSize, pieces);
        List<Region> kept = new ArrayList<>();
        long keptPairs = 0;
        for (int k = 0; k < parts.size() - 1; k++) { // the thief keeps at least the last piece
            long p = parts.get(k).pairs();
            if (keptPairs + p > excess) {
                break;
            }
            kept.add(parts.get(k));
            keptPairs += p;
        }
        if (kept.isEmpty()) {
            return given;
        }
        scheduler.give(kept);
        given.remove(largest);
        given.addAll(largest, parts.subList(kept.size(), parts.size()));
        return given;
    }
}
