package io.rocket.cli;

import io.rocket.core.RocketException;
import io.rocket.runtime.RocketOptions;
import io.rocket.steal.ScheduleOrder;
import io.rocket.results.journal.JournalOptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A node's resource options on their own: parsed without a command around them, and turned into the runtime's. */
class ResourceOptionsMixinTest {

    private static ResourceOptionsMixin parse(String... args) {
        ResourceOptionsMixin options = new ResourceOptionsMixin();
        new CommandLine(options).parseArgs(args);
        return options;
    }

    private static RocketOptions rocketOptions(String... args) {
        return parse(args).toRocketOptions(Path.of("t.json"), () -> "job", () -> null);
    }

    @Test
    void theOptionsReachTheRuntime_withTheOtherGroupsParts() {
        JournalOptions journal = new JournalOptions(Path.of("j"), false, "job");
        RocketOptions options = parse("--host-threads", "3", "--io-threads", "5", "--tile-size", "16", "--order",
                "quadtree", "--read-ahead", "1M", "--disk-cache", "dc", "--disk-cache-size", "2M")
                .toRocketOptions(Path.of("t.json"), () -> "job", () -> journal);
        assertThat(options.hostThreads()).isEqualTo(3);
        assertThat(options.ioThreads()).isEqualTo(5);
        assertThat(options.tileSize()).isEqualTo(16);
        assertThat(options.order()).isEqualTo(ScheduleOrder.QUADTREE);
        assertThat(options.trace()).isEqualTo(Path.of("t.json"));
        assertThat(options.journal()).isSameAs(journal);
        assertThat(options.inputs().readAheadBytes()).isEqualTo(1 << 20);
        assertThat(options.inputs().diskCache()).isEqualTo(Path.of("dc"));
        assertThat(options.inputs().diskCacheBytes()).isEqualTo(2 << 20);
        assertThat(options.inputs().job()).isEqualTo("job");
    }

    @Test
    void theDefaults_areAutoIoThreadsAndEveryCore() {
        RocketOptions options = rocketOptions();
        assertThat(options.ioThreads()).isEqualTo(RocketOptions.AUTO_IO_THREADS);
        assertThat(options.hostThreads()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(options.tileSize()).isEqualTo(RocketOptions.DEFAULT_TILE_SIZE);
        assertThat(options.inputs().diskCache()).isNull();
        assertThat(options.tilePairs()).isEqualTo(RocketOptions.AUTO_TILE_PAIRS);
    }

    @Test
    void tilePairs_autoOrACount() {
        assertThat(rocketOptions("--tile-pairs", "AUTO").tilePairs()).isEqualTo(RocketOptions.AUTO_TILE_PAIRS);
        assertThat(rocketOptions("--tile-pairs", "1").tilePairs()).isEqualTo(1);
        assertThat(rocketOptions("--tile-pairs", "300").tilePairs()).isEqualTo(300);
        assertThatThrownBy(() -> rocketOptions("--tile-pairs", "0"))
                .hasMessage("--tile-pairs must be at least 1, got 0");
        assertThatThrownBy(() -> rocketOptions("--tile-pairs", "many"))
                .hasMessage("--tile-pairs must be auto or a number of pairs, got 'many'");
    }

    @Test
    void aMistake_isOneLineNamingTheOption() {
        assertThatThrownBy(() -> rocketOptions("--tile-size", "0"))
                .isInstanceOf(RocketException.class).hasMessage("--tile-size must be at least 1, got 0");
        assertThatThrownBy(() -> rocketOptions("--read-ahead", "40slots"))
                .hasMessage("--read-ahead takes a size in bytes (512M, 2G), not a slot count");
        assertThatThrownBy(() -> rocketOptions("--disk-cache-size", "1G"))
                .hasMessage("--disk-cache-size needs --disk-cache DIR, the directory of the disk cache");
    }

    @Test
    void theJournal_isAskedForOnlyOnceTheseOptionsPassTheirChecks() {
        assertThatThrownBy(() -> parse("--tile-size", "0").toRocketOptions(null, () -> "job", () -> {
            throw new RocketException("journal");
        })).hasMessage("--tile-size must be at least 1, got 0");
    }
}
