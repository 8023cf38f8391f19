package io.rocket.cluster;

import io.rocket.cluster.l3.DistributedCache;
import io.rocket.cluster.l3.L3Message;
import io.rocket.cluster.l3.L3Transport;
import org.jgroups.Address;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * Connects the distributed cache (L3, which knows ranks, not networks) to the cluster: its control messages travel
 * over the channel as L3 messages, item bytes over the data plane, and bytes arriving on the data plane go into the
 * slot of the fetch that asked for them. Exists before the cache does (the data plane needs its sink from the
 * start); until {@link #attach} and on nodes without the distributed cache, L3 traffic is dropped.
 */
public final class L3Bridge implements L3Transport, DataPlane.Sink, AutoCloseable {
    private final int rank;
    private volatile Membership membership;
    private volatile ClusterChannel channel;
    private volatile DataPlane data;
    private volatile DistributedCache cache;

    public L3Bridge(int rank) {
        this.rank = rank;
    }

    /** Takes the L3 messages. */
    public void register(ControlDispatcher control) {
        control.register(Wire.Kind.L3, (from, in) -> {
            L3Message m = Wire.readL3(in);
            DistributedCache c = cache;
            if (c != null) {
                c.onMessage(m);
            }
        });
    }

    /** The ways out: control messages over {@code control}, item bytes over {@code dataPlane}, to ranks' addresses. */
    public void connect(Membership ranks, ClusterChannel control, DataPlane dataPlane) {
        this.membership = ranks;
        this.channel = control;
        this.data = dataPlane;
    }

    /** From now on L3 traffic goes to and from {@code value}. */
    public void attach(DistributedCache value) {
        cache = value;
    }

    /** The distributed cache, or null (not attached, or none on this node). */
    public DistributedCache cache() {
        return cache;
    }

    /** A rank was lost: stop fetching from it. */
    public void memberLost(int lostRank) {
        DistributedCache c = cache;
        if (c != null) {
            c.memberLost(lostRank);
        }
    }

    @Override
    public void sendControl(int to, L3Message message) {
        if (to == rank) {
            cache.onMessage(message);
            return;
        }
        Address address = membership.address(to);
        if (address != null) {
            channel.send(address, Wire.encode(Wire.Kind.L3, out -> Wire.writeL3(out, message)));
        }
    }

    @Override
    public void sendData(int to, long requestId, int item, int hop, ByteBuffer bytes, int length, Runnable done) {
        InetSocketAddress endpoint = membership.dataEndpoint(to);
        if (endpoint == null) {
            done.run(); // the requester was lost
            return;
        }
        data.send(endpoint, requestId, item, hop, bytes, length, done);
    }

    @Override
    public ByteBuffer begin(long requestId, int item, long length) {
        DistributedCache c = cache;
        return c == null ? null : c.beginReceive(requestId, item, length);
    }

    @Override
    public void end(long requestId, int hop, long length, boolean ok) {
        DistributedCache c = cache;
        if (c != null) {
            c.endReceive(requestId, hop, length, ok);
        }
    }

    @Override
    public void close() {
        DistributedCache c = cache;
        if (c != null) {
            c.close();
        }
    }
}
