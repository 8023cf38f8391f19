package io.rocket.cluster;

import org.jgroups.Address;
import org.jgroups.View;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.DataInputStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

/**
 * Hands each control message to the layer that owns its kind: membership, remote stealing, recovery, result
 * streaming, the end of the run and the L3 bridge each register their kinds here before the channel connects, so no
 * one place knows them all. Messages from a lost rank are dropped before any layer sees them (a lost rank stays out,
 * even if the network brings it back); a kind no layer of this node registered (a rank-0-only message elsewhere) is
 * ignored. View changes go to every layer that listens for them, in the order they registered.
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
        handler.onMessage(from, in);
    }

    @Override
    public void onView(View newView) {
        view = newView;
        for (Consumer<View> listener : viewListeners) {
            listener.accept(newView);
        }
    }
}
