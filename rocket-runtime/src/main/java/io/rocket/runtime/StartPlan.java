package io.rocket.runtime;

import io.rocket.cluster.ClusterOptions;
import io.rocket.cluster.Membership;
import io.rocket.cache.SlotCache;
import io.rocket.cluster.l3.DistributedCache;
import io.rocket.node.PipelineConfig;
import io.rocket.core.RocketException;
import io.rocket.core.trace.Tracer;
import io.rocket.steal.ClusterBands;
import io.rocket.steal.PairSet;
import io.rocket.steal.PairSpace;
import io.rocket.steal.ScheduleOrder;
import io.rocket.steal.SpaceStarts;
import io.rocket.steal.StartShares;
import io.rocket.steal.WorkScheduler;
import io.rocket.results.journal.ResultLog;

import java.util.List;

/**
 * How a cluster node starts: the start window it proposes, whether nodes share items (the distributed cache) and
 * start in cluster bands, which pairs are done already (rank 0's resumed journal, told to all in its START), and the
 * part of the pair matrix its workers start on.
 */
final class StartPlan {
    private final RocketOptions options;
    private final ClusterOptions cluster;
    private final int rank;
    private final int n;
    private final PairSpace space;

    /** The run's pair space. */
    PairSpace space() {
        return space;
    }

    StartPlan(RocketOptions options, ClusterOptions cluster, PairSpace space) {
        this.options = options;
        this.cluster = cluster;
        this.rank = cluster.rank();
        this.n = space.items();
        this.space = space;
    }

    /** Whether nodes fetch items from each other's L2 (L3). */
    boolean distributedCache() {
        return cluster.distributedCache() && cluster.nodes() > 1;
    }

    /**
     * Whether the nodes start in cluster bands: with the blocked order, when they start on shares of their own and
     * fetch items from each other (without the distributed cache, a node's own contiguous share reuses its L2 best).
     */
    boolean clusterBands() {
        return options.order() == ScheduleOrder.BLOCKED && cluster.partitionedStart() && distributedCache();
    }

    /**
     * The start window this node proposes (the run uses the smallest proposed): the one asked for; else, when nodes
     * fetch items from each other, the height of a cluster band ({@link ClusterBands}) in the blocked order or a
     * window sized to the L2 in the quadtree order, so they work on the same items at the same time; else the whole
     * matrix, so that each node keeps to its own part of the curve.
     */
    int proposedWindow(PipelineConfig config, int devices) {
        int window;
        if (cluster.startWindow() != ClusterOptions.AUTO_WINDOW) {
            window = cluster.startWindow();
        } else if (clusterBands()) {
            window = cluster.nodes() * ClusterBands.rowsPerNode(config.hostSlots(), devices, options.tileSize());
        } else {
            window = distributedCache() ? StartShares.windowFor(config.hostSlots()) : n;
        }
        return Math.max(1, Math.min(n, window));
    }

    /** The pairs rank 0 resumed from its journal, as its START told every node; null when none. */
    PairSet resumed(ResultLog<?, ?> journal, Membership membership) {
        if (rank == 0) {
            return journal == null || journal.resumed().size() == 0 ? null : journal.resumed();
        }
        byte[] compressed = membership.resumedPairs();
        if (compressed.length == 0) {
            return null;
        }
        PairSet done = new PairSet(n, space.ordered());
        try {
            done.addCompressed(compressed);
        } catch (IllegalArgumentException e) {
            throw new RocketException("cluster: rank 0 sent an unreadable set of resumed pairs: " + e.getMessage(), e);
        }
        return done;
    }

    /**
     * What is done before the run starts: the pairs outside the space and those resumed ({@link PairSpace#done});
     * null when there are none.
     */
    PairSet done(PairSet resumed) {
        return space.done(resumed);
    }

    /** Rank 0's finished-pair set at the start: what is done already, so that the run ends with the space's pairs. */
    PairSet finishedAtStart(PairSet resumed) {
        PairSet done = space.done(resumed);
        return done == null ? new PairSet(n, space.ordered()) : done;
    }

    /**
     * In cluster bands, each band keeps the rows its node will need in L2, and every item's contact is the node
     * whose band rows hold it (items below the bands' rows, references only, are spread over the nodes).
     */
    void keepBands(WorkScheduler work, SlotCache<?> l2, DistributedCache l3, int window, PairSet done,
                   boolean resumed) {
        int rows = SpaceStarts.bandRows(space, done, resumed);
        int nodes = cluster.nodes();
        work.onWindow(band -> l2.keep(ClusterBands.keptRows(rows, nodes, rank, window, band)));
        l3.homes(i -> i < rows ? ClusterBands.home(i, rows, nodes, window) : i % nodes);
    }

    /**
     * Starts this node's workers on its own share of the space (less what is {@code done}), or (rank 0) all of it.
     *
     * @param done    the pairs outside the space and those resumed, or null when none
     * @param resumed whether {@code done} holds resumed pairs
     */
    void start(WorkScheduler work, int window, PairSet done, boolean resumed, Tracer tracer) {
        int tile = options.tileSize();
        if (clusterBands()) {
            work.start(SpaceStarts.clusterBands(space, done, resumed, cluster.nodes(), rank, window, tile), tracer);
        } else if (cluster.partitionedStart()) {
            work.start(StartShares.parts(n, tile, cluster.nodes(), rank, window, done), tracer);
        } else if (rank == 0) {
            work.start(SpaceStarts.node(space, done, resumed, null, tile), tracer);
        } else {
            work.start(List.of(), tracer);
        }
    }
}
