package io.rocket.cluster;

import org.jgroups.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rank 0's START tells the other ranks whether it shows the job's status: only then do they sample their figures
 * and send them, so a run without a status pays nothing for it on any node.
 */
class StartMessageTest {

    private static DataInputStream start(boolean statusShown) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(b)) {
            out.writeLong(1_700_000_000_000L);
            out.writeInt(12);
            Wire.writeBytes(out, new byte[0]);
            out.writeBoolean(statusShown);
        }
        return new DataInputStream(new ByteArrayInputStream(b.toByteArray()));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void whetherRankZeroShowsTheStatus_reachesTheOtherRanks(boolean shown) throws Exception {
        Membership rankOne = new Membership(ClusterOptions.loopback("start", 1, 3),
                new InetSocketAddress("127.0.0.1", 9), 4);
        ControlDispatcher control = new ControlDispatcher(rankOne);
        rankOne.register(control);

        control.onMessage(UUID.randomUUID(), Wire.Kind.START, start(shown));

        assertThat(rankOne.statusShown()).isEqualTo(shown);
        assertThat(rankOne.startWindow()).isEqualTo(12);
        assertThat(rankOne.startEpochMillis()).isEqualTo(1_700_000_000_000L);
    }
}
