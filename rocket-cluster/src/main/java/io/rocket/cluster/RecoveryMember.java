package io.rocket.cluster;

import io.rocket.steal.Region;
import io.rocket.steal.WorkScheduler;
import org.jgroups.Address;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Every node's part in {@link Recovery}'s rounds: when rank 0 says which ranks are lost (LOST), it takes them out
 * of the run and (on ranks other than 0) sends its buffered results and then its claims; when rank 0 hands it lost
 * work (RECOVER), it runs it.
 */
public final class RecoveryMember implements AutoCloseable {
    private final int rank;
    private final int nodes;
    private final Membership membership;
    private final ClusterChannel channel;
    private final WorkScheduler scheduler;
    /** This node's result stream, flushed before the claims; null on rank 0. */
    private final ResultStream<?, ?> stream;
    /** Replies that must not run on JGroups' receive threads (they send, and may wait for flow control). */
    private final ExecutorService replies = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "rocket-control-replies");
        t.setDaemon(true);
        return t;
    });

    public RecoveryMember(ClusterOptions cluster, Membership membership, ClusterChannel channel, WorkScheduler scheduler,
                   ResultStream<?, ?> stream) {
        this.rank = cluster.rank();
        this.nodes = cluster.nodes();
        this.membership = membership;
        this.channel = channel;
        this.scheduler = scheduler;
        this.stream = stream;
    }

    public void register(ControlDispatcher control) {
        control.register(Wire.Kind.LOST, this::onLost);
        control.register(Wire.Kind.RECOVER, (from, in) -> scheduler.give(Wire.readRegions(in)));
    }

    private void onLost(Address from, DataInputStream in) throws IOException {
        int round = in.readInt();
        int count = in.readInt();
        if (count < 0 || count > nodes) {
            throw new IOException("LOST lists " + count + " ranks");
        }
        for (int k = 0; k < count; k++) {
            membership.markLost(in.readInt());
        }
        if (rank != 0) {
            replies.execute(() -> sendClaims(round));
        }
    }

    /** Sends the buffered results first, then the claims: rank 0 counts on results arriving before claims. */
    private void sendClaims(int round) {
        if (stream != null) {
            stream.flush();
        }
        List<Region> claims = scheduler.claims();
        Address zero = membership.address(0);
        if (zero != null) {
            channel.send(zero, Wire.encode(Wire.Kind.CLAIMS, out -> {
                out.writeInt(round);
                out.writeInt(rank);
                Wire.writeRegions(out, claims);
            }));
        }
    }

    @Override
    public void close() {
        replies.shutdownNow();
    }
}
