package io.rocket.node;

import io.rocket.core.HostBuffer;

/**
 * A source of already-loaded items on other nodes (the L3 level). The pipeline asks it after an L2 miss and loads
 * the item itself when the answer is a miss. Implementations never block the caller.
 */
public interface RemoteItems {

    /** Told how a fetch ended: exactly once (unless the source is closed first), on some network or timer thread. */
    interface Callback {
        /** The item's bytes are in the target buffer (its length is set). */
        void fetched();

        /** No peer had it, or the request timed out: load locally. */
        void missed();
    }

    /** Starts fetching {@code item} straight into {@code target} (an L2 slot, owned by the caller until called back). */
    void fetch(int item, HostBuffer target, Callback callback);
}
