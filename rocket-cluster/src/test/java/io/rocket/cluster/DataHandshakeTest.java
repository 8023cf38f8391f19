package io.rocket.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntPredicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The handshake alone, on one loopback connection: each mode picks the matching frame layer on both sides (so a
 * frame written by one is read by the other), and a node that disagrees about the mode or is not a member is
 * refused with a status both sides name.
 */
class DataHandshakeTest {
    private static final byte[] SECRET = "handshake test secret, 32 bytes!".getBytes(StandardCharsets.UTF_8);

    /** Runs both sides on one connection; returns {connecting side's layer, accepting side's layer}. */
    private static FrameLayer[] shake(ClusterSecurity client, ClusterSecurity server, IntPredicate isMember)
            throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            CompletableFuture<FrameLayer> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    return DataHandshake.accept(listener.accept(), server, isMember);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            SocketChannel c = SocketChannel.open(listener.getLocalAddress());
            FrameLayer out;
            try {
                out = DataHandshake.connect(c, client, 1);
            } catch (IOException | RuntimeException e) {
                c.close(); // as the data plane does: the accepting side's read then ends
                throw e;
            } finally {
                try {
                    accepted.join();
                } catch (RuntimeException ignored) {
                    // the accepting side's refusal is checked through the connecting side's
                }
            }
            return new FrameLayer[]{out, accepted.join()};
        }
    }

    @Test
    @Timeout(30)
    void eachModePicksTheSameLayerOnBothSides_andAFrameGoesThrough() throws Exception {
        for (ClusterSecurity security : new ClusterSecurity[]{ClusterSecurity.NONE, new ClusterSecurity(SECRET, false),
                new ClusterSecurity(SECRET, true)}) {
            FrameLayer[] layers = shake(security, security, r -> r == 1);
            Class<?> expected = security.encrypt() ? SealedRecords.class : PlainFrames.class;
            assertThat(layers[0]).isInstanceOf(expected);
            assertThat(layers[1]).isInstanceOf(expected);
            ByteBuffer body = ByteBuffer.allocateDirect(300).put(new byte[300]).flip();
            layers[0].write(FrameHeader.write(FrameHeader.buffer(true), 9, 4, 2, 300), body);
            ByteBuffer header = FrameHeader.buffer(false);
            assertThat(layers[1].readHeader(header)).isTrue();
            FrameHeader f = new FrameHeader().read(header.flip());
            assertThat(new long[]{f.id, f.item, f.hop, f.length}).containsExactly(9, 4, 2, 300);
            ByteBuffer into = ByteBuffer.allocate(300);
            layers[1].readBody(into, 300);
            assertThat(into.hasRemaining()).isFalse();
        }
    }

    @Test
    @Timeout(30)
    void otherModes_otherSecrets_andNonMembers_areRefused() {
        byte[] wrong = SECRET.clone();
        wrong[3] ^= 1;
        ClusterSecurity secured = new ClusterSecurity(SECRET, true);
        assertThatThrownBy(() -> shake(ClusterSecurity.NONE, secured, r -> true))
                .hasMessageContaining("disagree about the cluster secret");
        assertThatThrownBy(() -> shake(new ClusterSecurity(wrong, true), secured, r -> true))
                .hasMessageContaining("does not hold the cluster secret");
        assertThatThrownBy(() -> shake(secured, secured, r -> r == 0))
                .hasMessageContaining("not a current member");
        assertThatThrownBy(() -> shake(ClusterSecurity.NONE, ClusterSecurity.NONE, r -> r == 0))
                .hasMessageContaining("not a current member");
    }
}
