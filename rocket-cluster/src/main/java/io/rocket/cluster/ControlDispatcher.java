package io.rocket.cluster;

import org.jgroups.Address;
import org.jgroups.View;
import org.jgroups.util.NameCache;
import org.jgroups.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * Hands each control message to the layer that owns its kind: membership, remote stealing, recovery, result
 * streaming, the end of the run and the L3 bridge each register their kinds here before the channel connects, so no
 * one place knows them all. Messages from a lost rank are dropped before any layer sees them (a lost rank stays out,
 * even if the network brings it back); a kind no layer of this node registered (a rank-0-only message elsewhere) is
 * ignored. A message whose body cannot be read (a peer that is not a node of this job, which can join a cluster
 * without a secret) is refused with one warning line per sender naming it. View changes go to every layer that listens for them, in the order they registered.
 */
public final class ControlDispatcher implements ClusterChannel.Handler {
    private static final Logger LOG = LoggerFactory.getLogger(ControlDispatcher.class);

    /** Handles one kind of message, on JGroups' receive thread: it must return quickly and never run user code. */
    @FunctionalInterface
    interface MessageHandler {
        void onMessage(Address from, DataInputStream in) throws Exception;
    }

    private final AtomicReferenceArray<MessageHandler> handlers =
            new AtomicReferenceArray<>(Wire.Kind.values().length);
    private final List<Consumer<View>> viewListeners = new CopyOnWriteArrayList<>();
    private final Membership membership;
    private volatile View view;
    /** Senders of malformed messages already warned about (the next ones are logged at debug level). */
    private final Set<Address> malformedSenders = ConcurrentHashMap.newKeySet();
    private static final int MAX_MALFORMED_SENDERS = 64;
    private volatile String lastRefusal;

    public ControlDispatcher(Membership membership) {
        this.membership = membership;
    }

    /** Makes {@code handler} the one owner of {@code kind}; registering a kind twice is a wiring error. */
    void register(Wire.Kind kind, MessageHandler handler) {
        if (!handlers.compareAndSet(kind.ordinal(), null, handler)) {
            throw new IllegalStateException(kind + " has an owner already");
        }
    }

    /** Tells {@code listener} every view change from now on. */
    void onViewChange(Consumer<View> listener) {
        viewListeners.add(listener);
    }

    /** The last view this node accepted, or null before the first. */
    public View view() {
        return view;
    }

    @Override
    public void onMessage(Address from, Wire.Kind kind, DataInputStream in) throws Exception {
        if (membership.fromLost(from)) {
            return;
        }
        MessageHandler handler = handlers.get(kind.ordinal());
        if (handler == null) {
            LOG.debug("cluster: no handler for {} from {} on this node", kind, from);
            return;
        }
        try {
            handler.onMessage(from, in);
        } catch (IOException | IllegalArgumentException e) { // how decoders reject what they cannot read
            refuseMalformed(from, kind, e);
        }
    }

    /**
     * A message whose body cannot be read (it ends early, or holds what no node of a run writes): not from a node of
     * this job, as any process may join a cluster without a secret. Dropped with one line per sender, no stack.
     */
    private void refuseMalformed(Address from, Wire.Kind kind, Exception e) {
        String line = "cluster: refused a malformed " + kind + " message from " + describe(from) + " ("
                + (e instanceof EOFException ? "it ends early" : e.getMessage() == null ? e.toString()
                : e.getMessage()) + "): it is not a node of this job; a cluster secret (--cluster-secret-file) "
                + "keeps such peers out";
        lastRefusal = line;
        if (malformedSenders.size() < MAX_MALFORMED_SENDERS && malformedSenders.add(from)) {
            LOG.warn(line);
        } else {
            LOG.debug(line);
        }
    }

    /** A peer as logs name it: its logical name and its unique id (names are chosen by the peer itself). */
    static String describe(Address from) {
        if (from instanceof UUID uuid) {
            String name = NameCache.get(uuid);
            String id = uuid.toStringLong();
            return name == null || name.equals(id) ? id : name + " (" + id + ")";
        }
        return String.valueOf(from);
    }

    /** The line of the last message refused as malformed, or null before any (for tests and diagnostics). */
    String lastRefusal() {
        return lastRefusal;
    }

    @Override
    public void onView(View newView) {
        view = newView;
        for (Consumer<View> listener : viewListeners) {
            listener.accept(newView);
        }
    }
}
