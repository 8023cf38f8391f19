package io.rocket.cache.disk;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three real JVMs share one small cache directory, as Rocket processes on one node share its scratch disk: each
 * hammers overlapping keys with reads and writes while the others evict. No process may see a wrong or damaged
 * entry; whenever the test holds the directory lock, the entries fit the limit and match the usage record; and once
 * all have ended the directory is within its limit and holds no temporary files.
 */
class DiskCacheProcessTest {
    private static final int PROCESSES = 3;
    private static final int KEYS = 30;
    private static final long LIMIT = 60_000;
    private static final long RUN_MILLIS = 3_000;
    private static final Pattern COUNTS = Pattern.compile(
            "ops=(\\d+) hits=(\\d+) misses=(\\d+) writes=(\\d+) evictions=(\\d+)");

    @TempDir
    Path tmp;

    @Test
    void processesSharingADirectory_seeOnlyWholeEntries_andLeaveItWithinTheLimit() throws Exception {
        Path cacheDir = tmp.resolve("cache");
        Path inputs = Files.createDirectories(tmp.resolve("inputs"));
        for (int k = 0; k < KEYS; k++) {
            Files.writeString(inputs.resolve(DiskCacheHammer.inputName(k)), "input " + k);
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> processes = new ArrayList<>();
        List<Path> logs = new ArrayList<>();
        for (int p = 0; p < PROCESSES; p++) {
            Path log = tmp.resolve("process-" + p + ".log");
            logs.add(log);
            processes.add(new ProcessBuilder(java, "-Xmx64m", "-XX:TieredStopAtLevel=1",
                    "-cp", System.getProperty("java.class.path"), DiskCacheHammer.class.getName(),
                    cacheDir.toString(), inputs.toString(), Long.toString(LIMIT), Long.toString(RUN_MILLIS),
                    Integer.toString(p), Integer.toString(KEYS))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start());
        }
        // While they run, look at the directory as they must leave it whenever they release the lock: within the
        // limit, and described exactly by the usage record in the lock file.
        int samples = 0;
        while (processes.stream().anyMatch(Process::isAlive)) {
            if (Files.exists(cacheDir.resolve(CacheDirectory.LOCK_FILE))) {
                try (FileChannel channel = FileChannel.open(cacheDir.resolve(CacheDirectory.LOCK_FILE),
                        StandardOpenOption.READ, StandardOpenOption.WRITE);
                     FileLock ignored = channel.lock()) {
                    long bytes = Payloads.entryBytes(cacheDir);
                    assertThat(bytes).as("entry bytes under the lock").isLessThanOrEqualTo(LIMIT);
                    ByteBuffer usage = ByteBuffer.allocate(UsageRecord.USAGE_BYTES);
                    channel.read(usage, 0);
                    if (!usage.hasRemaining()) {
                        assertThat(usage.getLong(8)).as("usage record").isEqualTo(bytes);
                        assertThat(usage.getLong(16)).as("usage record entries")
                                .isEqualTo(Payloads.entryFiles(cacheDir).size());
                        samples++;
                    }
                }
            }
            Thread.sleep(50);
        }
        assertThat(samples).isPositive();
        long hits = 0;
        long writes = 0;
        long evictions = 0;
        for (int p = 0; p < PROCESSES; p++) {
            Process process = processes.get(p);
            boolean ended = process.waitFor(60, TimeUnit.SECONDS);
            if (!ended) {
                process.destroyForcibly().waitFor();
            }
            String output = Files.readString(logs.get(p));
            assertThat(ended).as("process %d ended; output:%n%s", p, output).isTrue();
            assertThat(process.exitValue()).as("process %d exit; output:%n%s", p, output).isZero();
            Matcher m = COUNTS.matcher(output);
            assertThat(m.find()).as("process %d counters in:%n%s", p, output).isTrue();
            hits += Long.parseLong(m.group(2));
            writes += Long.parseLong(m.group(4));
            evictions += Long.parseLong(m.group(5));
        }
        assertThat(hits).isPositive();
        assertThat(writes).isPositive();
        assertThat(evictions).isPositive();
        assertThat(Payloads.entryBytes(cacheDir)).isLessThanOrEqualTo(LIMIT);
        assertThat(Payloads.tempFiles(cacheDir)).isEmpty();
    }
}
