package io.rocket.cluster;

import org.jgroups.util.NameCache;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * A peer that joined a cluster without a secret and sends control messages no node of the job writes (a HELLO that
 * ends early, say) is refused in one line naming it; the message does not escape as an exception, which the
 * channel would log with its whole stack.
 */
class MalformedControlMessageTest {

    private static DataInputStream body(int... values) {
        byte[] bytes = new byte[values.length];
        for (int k = 0; k < values.length; k++) {
            bytes[k] = (byte) values[k];
        }
        return new DataInputStream(new ByteArrayInputStream(bytes));
    }

    @Test
    void aTruncatedHello_isRefusedInOneLineNamingThePeer() {
        ClusterOptions options = ClusterOptions.loopback("malformed", 0, 3);
        Membership membership = new Membership(options, new InetSocketAddress("127.0.0.1", 9), 4);
        ControlDispatcher control = new ControlDispatcher(membership);
        membership.register(control);
        UUID rogue = UUID.randomUUID();
        NameCache.add(rogue, "rogue-host-4711");

        assertThatCode(() -> control.onMessage(rogue, Wire.Kind.HELLO, body(0, 0, 0)))
                .doesNotThrowAnyException();

        assertThat(control.lastRefusal()).isEqualTo("cluster: refused a malformed HELLO message from rogue-host-4711 ("
                + rogue.toStringLong() + ") (it ends early): it is not a node of this job; a cluster secret "
                + "(--cluster-secret-file) keeps such peers out");
        assertThat(membership.lost()).isEmpty();
    }

    @Test
    void anUnreadableBody_ofAnotherKind_isRefusedToo() {
        ClusterOptions options = ClusterOptions.loopback("malformed", 0, 3);
        Membership membership = new Membership(options, new InetSocketAddress("127.0.0.1", 9), 4);
        ControlDispatcher control = new ControlDispatcher(membership);
        membership.register(control);
        UUID rogue = UUID.randomUUID();

        assertThatCode(() -> control.onMessage(rogue, Wire.Kind.REJECT, body(0x7f, 0x7f, 1)))
                .doesNotThrowAnyException();

        assertThat(control.lastRefusal()).startsWith("cluster: refused a malformed REJECT message from "
                + rogue.toStringLong() + " (");
    }

    @Test
    void aDecoderRejectingTheBody_refusesTheMessage_inOneLine() {
        ClusterOptions options = ClusterOptions.loopback("malformed", 0, 3);
        Membership membership = new Membership(options, new InetSocketAddress("127.0.0.1", 9), 4);
        ControlDispatcher control = new ControlDispatcher(membership);
        control.register(Wire.Kind.STATS, (from, in) -> {
            throw new IllegalArgumentException("region count -5");
        });
        UUID rogue = UUID.randomUUID();

        assertThatCode(() -> control.onMessage(rogue, Wire.Kind.STATS, body(1, 2, 3)))
                .doesNotThrowAnyException();

        assertThat(control.lastRefusal()).startsWith("cluster: refused a malformed STATS message from "
                + rogue.toStringLong() + " (region count -5): ");
    }
}
