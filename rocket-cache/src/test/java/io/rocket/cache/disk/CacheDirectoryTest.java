package io.rocket.cache.disk;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;

import static io.rocket.cache.disk.Payloads.bytes;
import static io.rocket.cache.disk.Payloads.key;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The directory's bookkeeping on its own, with entry files made by hand: the usage record, what a rescan counts, and
 * which entries eviction takes.
 */
class CacheDirectoryTest {
    @TempDir
    Path dir;

    /** An entry file of {@code size} bytes named for {@code label}, last used at second {@code usedAt}. */
    private Path entry(String label, int size, long usedAt) throws Exception {
        Path file = Files.write(dir.resolve(key(label).digest()), bytes(label.hashCode(), size));
        Files.setLastModifiedTime(file, FileTime.fromMillis(1_000_000_000_000L + usedAt * 1000));
        return file;
    }

    private UsageRecord usageRecord() throws Exception {
        UsageRecord usage = new UsageRecord();
        try (FileChannel channel = FileChannel.open(dir.resolve(CacheDirectory.LOCK_FILE), StandardOpenOption.READ)) {
            assertThat(usage.read(channel)).isTrue();
        }
        return usage;
    }

    @Test
    void aRescanOverTheLimit_evictsTheLeastRecentlyUsed_downToTheTrimTarget() throws Exception {
        List<Path> entries = new ArrayList<>();
        for (int k = 0; k < 5; k++) {
            entries.add(entry("k" + k, 1000, 4 - k)); // k4 used first, k0 last
        }
        CacheDirectory directory = new CacheDirectory(dir, 3500);
        directory.rescan();

        // 5000 bytes over a limit of 3500: evict down to 90 % of it, 3150, so two entries go.
        assertThat(directory.evictions()).isEqualTo(2);
        assertThat(entries.get(4)).doesNotExist();
        assertThat(entries.get(3)).doesNotExist();
        assertThat(entries.subList(0, 3)).allMatch(Files::exists);
        assertThat(directory.seenEntries()).isEqualTo(3);
        assertThat(directory.seenBytes()).isEqualTo(3000);
        UsageRecord usage = usageRecord();
        assertThat(usage.entries).isEqualTo(3);
        assertThat(usage.bytes).isEqualTo(3000);
    }

    @Test
    void theMostRecentlyUsedEntry_isNeverEvicted_evenAloneOverTheLimit() throws Exception {
        Path old = entry("old", 600, 1);
        Path big = entry("big", 2000, 2);
        CacheDirectory directory = new CacheDirectory(dir, 1000);
        directory.rescan();
        assertThat(old).doesNotExist();
        assertThat(big).exists();
        assertThat(directory.evictions()).isEqualTo(1);
        assertThat(directory.seenBytes()).isEqualTo(2000);
    }

    @Test
    void publishing_countsANewEntry_andReplacingOne_countsOnlyTheChangeInSize() throws Exception {
        CacheDirectory directory = new CacheDirectory(dir, 1 << 20);
        directory.rescan();
        Path entry = dir.resolve(key("a").digest());

        Path temp = Files.write(dir.resolve(CacheDirectory.tempName()), bytes(31, 700));
        directory.publish(temp, entry, 700);
        assertThat(temp).doesNotExist();
        assertThat(entry).hasSize(700);
        assertThat(directory.seenEntries()).isEqualTo(1);
        assertThat(directory.seenBytes()).isEqualTo(700);

        temp = Files.write(dir.resolve(CacheDirectory.tempName()), bytes(32, 300));
        directory.publish(temp, entry, 300);
        assertThat(directory.seenEntries()).isEqualTo(1);
        assertThat(directory.seenBytes()).isEqualTo(300);

        directory.deleteDamaged(entry);
        assertThat(entry).doesNotExist();
        assertThat(directory.seenEntries()).isZero();
        assertThat(directory.seenBytes()).isZero();
        directory.deleteDamaged(entry); // gone already: nothing to uncount
        assertThat(usageRecord().entries).isZero();
    }

    @Test
    void aDamagedUsageRecord_isRebuiltFromAScan() throws Exception {
        entry("a", 100, 1);
        entry("b", 200, 2);
        Files.write(dir.resolve(CacheDirectory.LOCK_FILE), bytes(33, UsageRecord.USAGE_BYTES));
        CacheDirectory directory = new CacheDirectory(dir, 1 << 20);

        Path temp = Files.write(dir.resolve(CacheDirectory.tempName()), bytes(34, 300));
        directory.publish(temp, dir.resolve(key("c").digest()), 300);
        assertThat(directory.seenEntries()).isEqualTo(3);
        assertThat(directory.seenBytes()).isEqualTo(600);
        assertThat(usageRecord().bytes).isEqualTo(600);
    }

    @Test
    void stamps_strictlyIncrease_soEntriesWrittenInOneClockTickKeepTheirOrder() {
        FileTime last = CacheDirectory.stamp();
        for (int k = 0; k < 1000; k++) {
            FileTime next = CacheDirectory.stamp();
            assertThat(next).isGreaterThan(last);
            last = next;
        }
    }
}
