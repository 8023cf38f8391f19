package io.rocket.cluster;

import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The builder states each setting once: defaults, copies that change one setting, and the record's checks. */
class ClusterOptionsTest {
    private static final List<InetSocketAddress> HOSTS = List.of(new InetSocketAddress("127.0.0.1", 7800),
            new InetSocketAddress("127.0.0.1", 7801));

    @Test
    void aBuilderStartsAtTheCommandLineDefaults() {
        ClusterOptions o = ClusterOptions.ofHosts(1, HOSTS);
        assertThat(o).isEqualTo(new ClusterOptions(1, 2, HOSTS, null, null, ClusterOptions.DEFAULT_JOIN_TIMEOUT, true,
                1, ClusterOptions.DEFAULT_L3_TIMEOUT, true, ClusterOptions.AUTO_WINDOW, "", Faults.NONE,
                ClusterOptions.DEFAULT_FAILURE_TIMEOUT, ClusterSecurity.NONE, Stragglers.DEFAULT));
    }

    @Test
    void withChangesOnlyItsSetting() {
        ClusterOptions base = ClusterOptions.loopback("g", 0, 3);
        ClusterOptions changed = base.withDistributedCache(false, 4).withL3Timeout(Duration.ofMillis(50))
                .withFingerprint("f").withPartitionedStart(false);
        assertThat(changed.distributedCache()).isFalse();
        assertThat(changed.hops()).isEqualTo(4);
        assertThat(changed.l3Timeout()).isEqualTo(Duration.ofMillis(50));
        assertThat(changed.fingerprint()).isEqualTo("f");
        assertThat(changed.partitionedStart()).isFalse();
        assertThat(changed.toBuilder().distributedCache(true).hops(1).l3Timeout(base.l3Timeout()).fingerprint("")
                .partitionedStart(true).build()).isEqualTo(base);
    }

    @Test
    void buildChecksTheWhole() {
        assertThatThrownBy(() -> ClusterOptions.builder(0, 2).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no discovery");
        assertThatThrownBy(() -> ClusterOptions.builder(2, 2).loopbackGroup("g").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rank 2");
        assertThatThrownBy(() -> ClusterOptions.builder(0, 3).hosts(HOSTS).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2 hosts given for 3 nodes");
    }
}
