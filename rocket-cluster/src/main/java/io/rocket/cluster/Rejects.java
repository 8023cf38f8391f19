package io.rocket.cluster;

import org.jgroups.Address;
import org.jgroups.View;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * REJECTs and their confirmations. A node that refuses a run (a different job's fingerprint, a cluster that did not
 * form) tells every member of its view at once; each one that receives a REJECT answers REJECT_SEEN, and the refusing
 * node waits for those answers (bounded) before it leaves the group, so that the others stop with its reason instead
 * of seeing it vanish.
 */
final class Rejects {
    private static final Logger LOG = LoggerFactory.getLogger(Rejects.class);

    private final ClusterChannel channel;
    /** The members a REJECT sent to all has not reached yet (no REJECT_SEEN from them); guarded by itself. */
    private final Set<Address> unseen = new HashSet<>();

    Rejects(ClusterChannel channel) {
        this.channel = channel;
    }

    /** Refuses one node (it does not fit this run); this node goes on. */
    void to(Address to, String reason) {
        channel.send(to, Wire.encode(Wire.Kind.REJECT, out -> out.writeUTF(reason)));
    }

    /** Sends {@code reason} to every member of the view; {@link #awaitSeen} waits until it reached them. */
    void toAll(String reason) {
        View view = channel.view();
        Address self = channel.self();
        synchronized (unseen) {
            if (view != null) {
                for (Address member : view.getMembers()) {
                    if (!member.equals(self)) {
                        unseen.add(member);
                    }
                }
            }
        }
        channel.send(null, Wire.encode(Wire.Kind.REJECT, out -> out.writeUTF(reason)));
    }

    /** A REJECT from {@code from} arrived here: tell it so (it waits for this before it leaves). */
    void confirm(Address from) {
        if (!from.equals(channel.self())) {
            channel.send(from, Wire.encode(Wire.Kind.REJECT_SEEN, out -> { }));
        }
    }

    /** {@code from} confirmed a REJECT of this node. */
    void seen(Address from) {
        synchronized (unseen) {
            if (unseen.remove(from) && unseen.isEmpty()) {
                unseen.notifyAll();
            }
        }
    }

    /**
     * Waits until every member a REJECT of this node was sent to has confirmed it (at once when it sent none), at
     * most {@code timeoutMillis}. Returns whether all confirmed.
     */
    boolean awaitSeen(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        synchronized (unseen) {
            while (!unseen.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    LOG.debug("cluster: {} did not confirm the REJECT within {} ms", unseen, timeoutMillis);
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(unseen, left);
            }
        }
        return true;
    }
}
