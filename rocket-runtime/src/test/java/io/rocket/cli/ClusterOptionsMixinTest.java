package io.rocket.cli;

import io.rocket.core.RocketException;
import io.rocket.cluster.ClusterOptions;
import io.rocket.cluster.ClusterSecurity;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.net.InetSocketAddress;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cluster options on their own: parsed without a command around them, and checked with one-line messages. */
class ClusterOptionsMixinTest {

    private static ClusterOptionsMixin parse(String... args) {
        ClusterOptionsMixin options = new ClusterOptionsMixin();
        new CommandLine(options).parseArgs(args);
        return options;
    }

    @Test
    void oneNode_isNoCluster_andWritesTheOutputs_asRankZeroOfACluster_does() {
        assertThat(parse("--nodes", "1").isCluster()).isFalse();
        assertThat(parse("--nodes", "1", "--rank", "3").writesOutputs()).isTrue();
        assertThat(parse("--nodes", "2", "--rank", "0").writesOutputs()).isTrue();
        assertThat(parse("--nodes", "2", "--rank", "1").writesOutputs()).isFalse();
    }

    @Test
    void hostsWithoutAPort_takeThePortOption_andTheOptionsReachTheClusterOptions() {
        ClusterOptions options = parse("--nodes", "2", "--rank", "1", "--hosts", "127.0.0.1, 127.0.0.1:7001",
                "--port", "7100", "--start-window", "ALL", "--no-distributed-cache", "--join-timeout", "5",
                "--failure-timeout", "0.5").clusterOptions("fp");
        assertThat(options.rank()).isEqualTo(1);
        assertThat(options.nodes()).isEqualTo(2);
        assertThat(options.hosts()).extracting(InetSocketAddress::getPort).containsExactly(7100, 7001);
        assertThat(options.startWindow()).isEqualTo(Integer.MAX_VALUE);
        assertThat(options.distributedCache()).isFalse();
        assertThat(options.joinTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(options.failureTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(options.fingerprint()).isEqualTo("fp");
        assertThat(options.security()).isEqualTo(ClusterSecurity.NONE);
    }

    @Test
    void theStartWindow_isAnItemCount_autoOrAll() {
        String[] discovery = {"--nodes", "2", "--discovery-dir", "/tmp/rocket-nodes"};
        assertThat(parse(append(discovery, "--start-window", "64")).clusterOptions("fp").startWindow()).isEqualTo(64);
        assertThat(parse(discovery).clusterOptions("fp").startWindow()).isEqualTo(ClusterOptions.AUTO_WINDOW);
        assertThatThrownBy(() -> parse(append(discovery, "--start-window", "0")).clusterOptions("fp"))
                .isInstanceOf(RocketException.class)
                .hasMessage("--start-window must be a number of items (at least 1), auto or all, got '0'");
    }

    @Test
    void aMistake_isOneLineNamingTheOption() {
        assertThatThrownBy(() -> parse("--nodes", "3", "--rank", "3").clusterOptions("fp"))
                .hasMessage("--rank must be in 0..2, got 3");
        assertThatThrownBy(() -> parse("--nodes", "2", "--hosts", "a").clusterOptions("fp"))
                .hasMessage("--hosts lists 1 hosts for --nodes 2");
        assertThatThrownBy(() -> parse("--nodes", "2", "--hosts", "a:b,c").clusterOptions("fp"))
                .hasMessage("bad host 'a:b': port is not a number");
        assertThatThrownBy(() -> parse("--nodes", "2").clusterOptions("fp"))
                .hasMessage("a cluster run needs --hosts or --discovery-dir");
        assertThatThrownBy(() -> parse("--nodes", "2", "--discovery-dir", "/tmp/d", "--distributed-cache-hops", "0")
                .clusterOptions("fp")).hasMessage("--distributed-cache-hops must be at least 1, got 0");
        assertThatThrownBy(() -> parse("--nodes", "2", "--discovery-dir", "/tmp/d", "--fault-drop", "nonsense")
                .clusterOptions("fp")).hasMessageStartingWith("--fault-drop: ");
    }

    @Test
    void encryption_needsASecret() {
        assertThatThrownBy(() -> parse("--cluster-encrypt").security())
                .isInstanceOf(RocketException.class).hasMessageStartingWith("--cluster-encrypt needs a cluster secret");
        assertThat(parse().security()).isEqualTo(ClusterSecurity.NONE);
    }

    private static String[] append(String[] args, String... more) {
        String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return all;
    }
}
