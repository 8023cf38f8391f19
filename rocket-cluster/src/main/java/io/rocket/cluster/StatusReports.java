package io.rocket.cluster;

import org.jgroups.Address;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The live figures of a cluster's nodes on their way to rank 0 (STATUS messages): a node sends its
 * {@link NodeStatus} when its sampler finds it changed, rank 0 keeps the latest of each rank for its status endpoint.
 * Nothing here is per pair; a lost message is made good by the next.
 *
 * <p>Thread-safe: the sampler sends, JGroups' receive thread stores, the endpoint's thread reads.
 */
public final class StatusReports {
    private final int rank;
    private final int nodes;
    private final Membership membership;
    private final ClusterChannel channel;
    /** Rank 0: the latest status of each rank. */
    private final Map<Integer, NodeStatus> latest = new ConcurrentSkipListMap<>();

    /**
     * @param rank       this node's rank
     * @param nodes      the cluster's nodes
     * @param membership the cluster's ranks and their addresses
     * @param channel    the control channel
     */
    public StatusReports(int rank, int nodes, Membership membership, ClusterChannel channel) {
        this.rank = rank;
        this.nodes = nodes;
        this.membership = membership;
        this.channel = channel;
    }

    /** Registers the STATUS kind (rank 0 takes them; another rank receiving one ignores it). */
    public void register(ControlDispatcher control) {
        control.register(Wire.Kind.STATUS, (from, in) -> {
            NodeStatus status = NodeStatus.read(in);
            if (rank == 0 && status.rank() >= 0 && status.rank() < nodes) {
                latest.put(status.rank(), status);
            }
        });
    }

    /**
     * Publishes this node's status: sent to rank 0, or kept here on rank 0.
     *
     * @param status this node's figures now
     */
    public void publish(NodeStatus status) {
        if (rank == 0) {
            latest.put(0, status);
            return;
        }
        Address zero = membership.address(0);
        if (zero != null) {
            channel.send(zero, Wire.encode(Wire.Kind.STATUS, status::write));
        }
    }

    /**
     * Rank 0: the latest status of every rank, in rank order: lost ranks marked {@code lost}, ranks not heard from
     * yet {@code starting} with no figures.
     *
     * @return the statuses, one per rank
     */
    public List<NodeStatus> nodes() {
        List<NodeStatus> all = new ArrayList<>(nodes);
        for (int r = 0; r < nodes; r++) {
            NodeStatus s = latest.get(r);
            boolean lost = membership.isLost(r);
            all.add(s == null ? NodeStatus.empty(r, lost ? "lost" : "starting") : lost ? s.withState("lost") : s);
        }
        return all;
    }
}
