package io.rocket.apps.inputs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.apps.Cli;
import io.rocket.apps.phylogenetics.PhyloGenerator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The disk cache across real runs of the phylogenetics command: a second identical run reads and parses nothing and
 * computes the same distances; a changed input, a changed option and a corrupt entry each make exactly the items
 * concerned load again from their files.
 */
class DiskCacheRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int TAXA = 12;

    @TempDir
    Path dir;
    Path data;
    Path cache;

    @BeforeEach
    void generate() throws IOException {
        data = dir.resolve("data");
        cache = dir.resolve("cache");
        PhyloGenerator.generate(data, TAXA, 0.5, 100, 3);
    }

    @Test
    void secondRun_readsAndParsesNothing_sameResults() throws IOException {
        JsonNode first = run("first", "4");
        JsonNode second = run("second", "4");

        assertThat(first.path("disk_cache").path("misses").asLong()).isEqualTo(TAXA);
        assertThat(first.path("disk_cache").path("writes").asLong()).isEqualTo(TAXA);
        assertThat(second.path("disk_cache").path("hits").asLong()).isEqualTo(TAXA);
        assertThat(second.path("cache").path("disk").path("hits").asLong()).isEqualTo(TAXA);
        assertThat(second.path("inputs").isMissingNode() || second.path("inputs").isEmpty())
                .as("no input file read: %s", second.path("inputs")).isTrue();
        assertThat(second.path("step_seconds").has("parse")).isFalse();
        assertThat(second.path("step_seconds").has("preprocess")).as("preprocessed items are kept").isFalse();
        assertThat(sorted("second")).isEqualTo(sorted("first"));
    }

    @Test
    void changedInput_onlyThatItemReloads() throws IOException {
        run("first", "4");
        Path changed = proteomes().get(5);
        Files.setLastModifiedTime(changed, FileTime.from(Instant.now().plusSeconds(60)));

        JsonNode second = run("second", "4");

        assertThat(second.path("disk_cache").path("hits").asLong()).isEqualTo(TAXA - 1);
        assertThat(second.path("disk_cache").path("misses").asLong()).isEqualTo(1);
        assertThat(second.path("inputs").path("file").path("files").asLong()).isEqualTo(1);
        assertThat(sorted("second")).isEqualTo(sorted("first"));
    }

    @Test
    void otherOption_missesEverything() throws IOException {
        run("k4", "4");
        JsonNode k5 = run("k5", "5");
        assertThat(k5.path("disk_cache").path("hits").asLong()).isZero();
        assertThat(k5.path("disk_cache").path("misses").asLong()).isEqualTo(TAXA);
    }

    @Test
    void corruptEntry_detectedAndReloaded() throws IOException {
        run("first", "4");
        Path entry;
        try (Stream<Path> entries = Files.list(cache)) {
            entry = entries.filter(p -> !p.getFileName().toString().startsWith(".")).sorted().findFirst()
                    .orElseThrow();
        }
        try (FileChannel ch = FileChannel.open(entry, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(1);
            long at = ch.size() - 7;
            ch.read(b, at);
            b.put(0, (byte) (b.get(0) ^ 0x5a)).rewind();
            ch.write(b, at);
        }

        JsonNode second = run("second", "4");

        assertThat(second.path("disk_cache").path("corrupt").asLong()).isEqualTo(1);
        assertThat(second.path("disk_cache").path("hits").asLong()).isEqualTo(TAXA - 1);
        assertThat(second.path("inputs").path("file").path("files").asLong()).isEqualTo(1);
        assertThat(sorted("second")).isEqualTo(sorted("first"));
        JsonNode third = run("third", "4");
        assertThat(third.path("disk_cache").path("hits").asLong()).as("rewritten").isEqualTo(TAXA);
    }

    private List<Path> proteomes() throws IOException {
        try (Stream<Path> files = Files.list(data)) {
            return files.filter(p -> p.toString().endsWith(".faa.gz")).sorted().toList();
        }
    }

    private List<String> sorted(String name) throws IOException {
        return Files.readAllLines(dir.resolve(name + ".tsv")).stream().sorted().toList();
    }

    private JsonNode run(String name, String k) throws IOException {
        Path summary = dir.resolve(name + ".json");
        Cli.Result r = Cli.run("phylogenetics", data.toString(), "--k", k, "-o", dir.resolve(name + ".tsv").toString(),
                "--summary-json", summary.toString(), "--disk-cache", cache.toString(), "--disk-cache-size", "64M",
                "--no-progress");
        assertThat(r.code()).as(r.both()).isZero();
        return JSON.readTree(summary.toFile());
    }
}
