package io.rocket.cluster;

import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.Header;
import org.jgroups.Message;
import org.jgroups.conf.ClassConfigurator;
import org.jgroups.protocols.pbcast.ClientGmsImpl;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.JoinRsp;
import org.jgroups.stack.Protocol;

/**
 * Lets a node's JOIN requests wait longer each time one goes unanswered, so that joining adapts to a slow
 * coordinator instead of giving up on it. JGroups' GMS waits a fixed time for each JOIN response and, after a fixed
 * number of tries, makes the joiner a cluster of its own. On a loaded machine a coordinator can take longer than that
 * wait to admit a node: the joiner then asks again and again while its first request is still being handled, and may
 * end up alone, in a cluster that must later merge with the others. Here GMS retries without limit (the cluster run
 * bounds the whole join by {@code --join-timeout}), and before each try this protocol, directly below GMS, sets the
 * wait for its answer: the first wait, doubled on every try, up to a cap. It also remembers the tries, so that a
 * failed join can say how far it got, and can {@linkplain #abandon abandon} a join in progress: JGroups holds the
 * channel's lock while it joins, so the channel cannot be closed before its join ends.
 */
final class JoinBackoff extends Protocol {
    /** JGroups names protocols by an id; ids from 1024 up are for protocols outside JGroups. */
    static final short PROTOCOL_ID = 1_702;

    static {
        ClassConfigurator.addProtocol(PROTOCOL_ID, JoinBackoff.class);
    }

    private static final short GMS_ID = ClassConfigurator.getProtocolId(GMS.class);

    private final GMS gms;
    private final long firstMillis;
    private final long capMillis;
    private volatile int tries;
    private volatile Address lastCoordinator;
    private volatile boolean abandoned;

    /** The refusal that ends an abandoned join (JGroups reports it as a SecurityException with this message). */
    static final String ABANDONED = "rocket: join abandoned at the join timeout";

    /**
     * @param gms         the GMS directly above
     * @param firstMillis the wait for the answer to the first JOIN request
     * @param capMillis   the longest wait for one answer
     */
    JoinBackoff(GMS gms, long firstMillis, long capMillis) {
        this.gms = gms;
        this.firstMillis = firstMillis;
        this.capMillis = Math.max(firstMillis, capMillis);
        gms.setJoinTimeout(firstMillis);
        gms.setMaxJoinAttempts(0); // retry until the cluster run's own deadline: never split off alone
    }

    /** The wait for the answer to JOIN request number {@code attempt} (1, 2, ...). */
    static long waitFor(int attempt, long firstMillis, long capMillis) {
        long wait = firstMillis;
        for (int k = 1; k < attempt && wait < capMillis; k++) {
            wait *= 2;
        }
        return Math.min(wait, Math.max(firstMillis, capMillis));
    }

    @Override
    public Object down(Message msg) {
        Header h = msg.getHeader(GMS_ID);
        if (h instanceof GMS.GmsHeader g && (g.getType() == GMS.GmsHeader.JOIN_REQ
                || g.getType() == GMS.GmsHeader.JOIN_REQ_WITH_STATE_TRANSFER)) {
            // GMS reads its join timeout after this send returns, for the wait that belongs to this very request.
            if (abandoned) {
                refuse(); // GMS finds the refusal while it waits for an answer to this request
                return null;
            }
            int attempt = ++tries;
            lastCoordinator = msg.getDest();
            gms.setJoinTimeout(waitFor(attempt, firstMillis, capMillis));
        }
        return down_prot.down(msg);
    }

    /**
     * Ends a join in progress: GMS is handed a refusal, as if from the coordinator, which it finds before its next
     * request (at most one wait for an answer from now) and which makes the channel's connect fail. Does nothing
     * once the node has joined.
     */
    void abandon() {
        abandoned = true;
        refuse();
    }

    private void refuse() {
        Address self = gms.getAddress();
        if (gms.getImpl() instanceof ClientGmsImpl && self != null) {
            up_prot.up(new BytesMessage(self).setSrc(self)
                    .putHeader(GMS_ID, new GMS.GmsHeader(GMS.GmsHeader.JOIN_RSP))
                    .setArray(GMS.marshal(new JoinRsp(ABANDONED))));
        }
    }

    /** JOIN requests this node has sent so far. */
    int tries() {
        return tries;
    }

    /** The coordinator the last JOIN request went to, or null before the first. */
    Address lastCoordinator() {
        return lastCoordinator;
    }
}
