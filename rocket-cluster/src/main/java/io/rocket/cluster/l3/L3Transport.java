package io.rocket.cluster.l3;

import java.nio.ByteBuffer;

/**
 * What the L3 protocol needs from the network: small control messages to a rank, and bulk item bytes to a rank on
 * a separate data plane (so control traffic never queues behind a large transfer). A message to this node's own
 * rank is delivered locally.
 */
public interface L3Transport {

    /** Sends an L3 control message; see {@link DistributedCache} for the kinds. Never blocks for long. */
    void sendControl(int rank, L3Message message);

    /**
     * Queues {@code length} bytes of {@code data} for {@code rank}, tagged with the request; {@code done} runs when
     * they have been written (or the send failed), after which the caller may reuse the buffer.
     */
    void sendData(int rank, long requestId, int item, int hop, ByteBuffer data, int length, Runnable done);
}
