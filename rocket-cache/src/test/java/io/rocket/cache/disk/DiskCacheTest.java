package io.rocket.cache.disk;

import io.rocket.core.RocketException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.rocket.cache.disk.Payloads.bytes;
import static io.rocket.cache.disk.Payloads.copy;
import static io.rocket.cache.disk.Payloads.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

class DiskCacheTest {
    private static final long MiB = 1 << 20;

    @TempDir
    Path tmp;

    @Test
    void roundTrip_readsWhatWasWritten_withoutMovingEitherBuffer() {
        byte[] data = bytes(1, 1000);
        try (DiskCache cache = DiskCache.open(tmp.resolve("cache"), MiB)) {
            ByteBuffer payload = ByteBuffer.allocateDirect(1100).position(50);
            payload.put(data).flip().position(50);
            cache.write(key("a"), payload);
            assertThat(payload.position()).isEqualTo(50);
            assertThat(payload.limit()).isEqualTo(1050);

            ByteBuffer target = ByteBuffer.allocateDirect(4096).position(100);
            assertThat(cache.read(key("a"), target)).isEqualTo(1000);
            assertThat(target.position()).isEqualTo(100);
            assertThat(target.limit()).isEqualTo(4096);
            assertThat(copy(target, 100, 1000)).isEqualTo(data);
            assertThat(cache.contains(key("a"))).isTrue();

            DiskCache.Stats stats = cache.stats();
            assertThat(stats.writes()).isEqualTo(1);
            assertThat(stats.hits()).isEqualTo(1);
            assertThat(stats.misses()).isZero();
            assertThat(stats.bytesWritten()).isEqualTo(1000);
            assertThat(stats.bytesRead()).isEqualTo(1000);
            assertThat(stats.entries()).isEqualTo(1);
            assertThat(stats.bytes()).isEqualTo(EntryFormat.HEADER_BYTES + key("a").textBytes().length + 1000);
        }
    }

    @Test
    void entriesOutliveTheInstance_soASecondRunReadsThem() throws Exception {
        Path dir = tmp.resolve("cache");
        byte[] data = bytes(2, 5000);
        try (DiskCache cache = DiskCache.open(dir, MiB)) {
            cache.write(key("a"), ByteBuffer.wrap(data));
        }
        try (DiskCache cache = DiskCache.open(dir, MiB)) {
            assertThat(cache.stats().entries()).isEqualTo(1);
            assertThat(cache.stats().bytes()).isEqualTo(Payloads.entryBytes(dir));
            ByteBuffer target = ByteBuffer.allocate(8000);
            assertThat(cache.read(key("a"), target)).isEqualTo(5000);
            assertThat(copy(target, 0, 5000)).isEqualTo(data);
        }
        assertThat(Payloads.tempFiles(dir)).isEmpty();
    }

    @Test
    void emptyPayload_isAnEntryToo() {
        try (DiskCache cache = DiskCache.open(tmp, MiB)) {
            cache.write(key("empty"), ByteBuffer.allocate(0));
            assertThat(cache.read(key("empty"), ByteBuffer.allocate(0))).isZero();
        }
    }

    @Test
    void absentEntry_isAMiss() {
        try (DiskCache cache = DiskCache.open(tmp, MiB)) {
            assertThat(cache.contains(key("a"))).isFalse();
            assertThat(cache.read(key("a"), ByteBuffer.allocate(10))).isEqualTo(-1);
            assertThat(cache.stats().misses()).isEqualTo(1);
            assertThat(cache.stats().hits()).isZero();
        }
    }

    @Test
    void changedInput_givesAnotherKey_andSoAMiss() throws Exception {
        Path input = Files.writeString(tmp.resolve("item.txt"), "one");
        try (DiskCache cache = DiskCache.open(tmp.resolve("cache"), MiB)) {
            DiskKey before = DiskKey.of(Payloads.JOB, "parsed", "item.txt", List.of(input));
            cache.write(before, ByteBuffer.wrap(bytes(3, 100)));
            ByteBuffer target = ByteBuffer.allocate(100);
            assertThat(cache.read(DiskKey.of(Payloads.JOB, "parsed", "item.txt", List.of(input)), target))
                    .isEqualTo(100);

            Files.setLastModifiedTime(input, FileTime.from(Instant.now().plusSeconds(60)));
            assertThat(cache.read(DiskKey.of(Payloads.JOB, "parsed", "item.txt", List.of(input)), target))
                    .isEqualTo(-1);

            FileTime time = Files.getLastModifiedTime(input);
            Files.writeString(input, "one more");
            Files.setLastModifiedTime(input, time);
            assertThat(cache.read(DiskKey.of(Payloads.JOB, "parsed", "item.txt", List.of(input)), target))
                    .isEqualTo(-1);
            assertThat(cache.stats().misses()).isEqualTo(2);
        }
    }

    @Test
    void flippedPayloadByte_isCorrupt_deleted_andAMiss_thenRewritten() throws Exception {
        Path dir = tmp.resolve("cache");
        byte[] data = bytes(4, 2000);
        try (DiskCache cache = DiskCache.open(dir, MiB)) {
            cache.write(key("a"), ByteBuffer.wrap(data));
            Path entry = dir.resolve(key("a").digest());
            long size = Files.size(entry);
            flip(entry, size - 700);

            assertThat(cache.read(key("a"), ByteBuffer.allocate(4000))).isEqualTo(-1);
            DiskCache.Stats stats = cache.stats();
            assertThat(stats.corrupt()).isEqualTo(1);
            assertThat(stats.misses()).isEqualTo(1);
            assertThat(stats.entries()).isZero();
            assertThat(stats.bytes()).isZero();
            assertThat(entry).doesNotExist();

            cache.write(key("a"), ByteBuffer.wrap(data));
            ByteBuffer target = ByteBuffer.allocate(4000);
            assertThat(cache.read(key("a"), target)).isEqualTo(2000);
            assertThat(copy(target, 0, 2000)).isEqualTo(data);
        }
    }

    @Test
    void badMagic_isCorrupt() throws Exception {
        Path dir = tmp.resolve("cache");
        try (DiskCache cache = DiskCache.open(dir, MiB)) {
            cache.write(key("a"), ByteBuffer.wrap(bytes(5, 100)));
            flip(dir.resolve(key("a").digest()), 0);
            assertThat(cache.read(key("a"), ByteBuffer.allocate(100))).isEqualTo(-1);
            assertThat(cache.stats().corrupt()).isEqualTo(1);
            assertThat(dir.resolve(key("a").digest())).doesNotExist();
        }
    }

    @Test
    void truncatedEntry_isCorrupt_whereverItIsCut() throws Exception {
        Path dir = tmp.resolve("cache");
        try (DiskCache cache = DiskCache.open(dir, MiB)) {
            Path entry = dir.resolve(key("a").digest());
            long full = 0;
            for (long cut : new long[]{-1, -999, 10, 0}) {
                cache.write(key("a"), ByteBuffer.wrap(bytes(6, 1000)));
                full = Files.size(entry);
                try (FileChannel channel = FileChannel.open(entry, StandardOpenOption.WRITE)) {
                    channel.truncate(cut < 0 ? full + cut : cut);
                }
                assertThat(cache.read(key("a"), ByteBuffer.allocate(1000))).as("cut %d", cut).isEqualTo(-1);
                assertThat(entry).doesNotExist();
            }
            assertThat(full).isGreaterThan(1000);
            assertThat(cache.stats().corrupt()).isEqualTo(4);
        }
    }

    @Test
    void anotherKeysEntryUnderTheSameName_isAMiss_notCorrupt() throws Exception {
        Path dir = tmp.resolve("cache");
        try (DiskCache cache = DiskCache.open(dir, MiB)) {
            cache.write(key("a"), ByteBuffer.wrap(bytes(7, 100)));
            Files.move(dir.resolve(key("a").digest()), dir.resolve(key("b").digest()));
            assertThat(cache.read(key("b"), ByteBuffer.allocate(100))).isEqualTo(-1);
            assertThat(cache.stats().corrupt()).isZero();
            assertThat(cache.stats().misses()).isEqualTo(1);

            // Same length, same position: only the key text tells them apart.
            cache.write(key("c"), ByteBuffer.wrap(bytes(7, 100)));
            Files.move(dir.resolve(key("c").digest()), dir.resolve(key("b").digest()),
                    StandardCopyOption.REPLACE_EXISTING);
            assertThat(cache.read(key("b"), ByteBuffer.allocate(100))).isEqualTo(-1);
            assertThat(cache.stats().corrupt()).isZero();

            byte[] data = bytes(8, 100);
            cache.write(key("b"), ByteBuffer.wrap(data));
            ByteBuffer target = ByteBuffer.allocate(100);
            assertThat(cache.read(key("b"), target)).isEqualTo(100);
            assertThat(target.array()).isEqualTo(data);
        }
    }

    @Test
    void payloadLargerThanTheTarget_isAMiss_andTheEntryStays() {
        try (DiskCache cache = DiskCache.open(tmp, MiB)) {
            cache.write(key("a"), ByteBuffer.wrap(bytes(9, 1000)));
            assertThat(cache.read(key("a"), ByteBuffer.allocate(2000).position(1001))).isEqualTo(-1);
            assertThat(cache.stats().corrupt()).isZero();
            assertThat(cache.contains(key("a"))).isTrue();
            assertThat(cache.read(key("a"), ByteBuffer.allocate(2000).position(1000))).isEqualTo(1000);
        }
    }

    @Test
    void overTheLimit_evictsTheLeastRecentlyReadEntryFirst() throws Exception {
        Path dir = tmp.resolve("cache");
        long entryBytes = EntryFormat.HEADER_BYTES + key("a").textBytes().length + 1000;
        try (DiskCache cache = DiskCache.open(dir, entryBytes * 7 / 2)) {
            for (String label : List.of("a", "b", "c")) {
                cache.write(key(label), ByteBuffer.wrap(bytes(label.hashCode(), 1000)));
            }
            FileTime written = Files.getLastModifiedTime(dir.resolve(key("a").digest()));
            assertThat(cache.read(key("a"), ByteBuffer.allocate(1000))).isEqualTo(1000);
            assertThat(Files.getLastModifiedTime(dir.resolve(key("a").digest()))).isGreaterThan(written);

            cache.write(key("d"), ByteBuffer.wrap(bytes(10, 1000)));

            assertThat(cache.contains(key("b"))).isFalse();
            assertThat(List.of("a", "c", "d")).allMatch(label -> cache.contains(key(label)));
            DiskCache.Stats stats = cache.stats();
            assertThat(stats.evictions()).isEqualTo(1);
            assertThat(stats.entries()).isEqualTo(3);
            assertThat(stats.bytes()).isEqualTo(3 * entryBytes).isEqualTo(Payloads.entryBytes(dir));

            cache.read(key("c"), ByteBuffer.allocate(1000));
            cache.write(key("e"), ByteBuffer.wrap(bytes(11, 1000)));
            assertThat(cache.contains(key("a"))).isFalse();
            assertThat(List.of("c", "d", "e")).allMatch(label -> cache.contains(key(label)));
        }
    }

    @Test
    void entryLargerThanTheLimit_isNotStored() throws Exception {
        Path dir = tmp.resolve("cache");
        try (DiskCache cache = DiskCache.open(dir, 4000)) {
            cache.write(key("small"), ByteBuffer.wrap(bytes(12, 1000)));
            cache.write(key("big"), ByteBuffer.wrap(bytes(13, 4000)));
            assertThat(cache.contains(key("big"))).isFalse();
            assertThat(cache.contains(key("small"))).isTrue();
            assertThat(cache.stats().writes()).isEqualTo(1);
            assertThat(cache.stats().evictions()).isZero();
        }
        assertThat(Payloads.tempFiles(dir)).isEmpty();
    }

    @Test
    void openingWithASmallerLimit_evictsAtOnce() throws Exception {
        Path dir = tmp.resolve("cache");
        try (DiskCache cache = DiskCache.open(dir, MiB)) {
            for (int i = 0; i < 6; i++) {
                cache.write(key("k" + i), ByteBuffer.wrap(bytes(i, 1000)));
            }
        }
        long entryBytes = Files.size(Payloads.entryFiles(dir).get(0));
        try (DiskCache cache = DiskCache.open(dir, 3 * entryBytes)) {
            assertThat(cache.stats().evictions()).isEqualTo(4);
            assertThat(cache.stats().entries()).isEqualTo(2);
            assertThat(List.of("k4", "k5")).allMatch(label -> cache.contains(key(label)));
        }
        assertThat(Payloads.entryBytes(dir)).isEqualTo(2 * entryBytes);
    }

    @Test
    void scans_deleteStaleTemporaryFiles_andKeepFreshOnes() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("cache"));
        Path stale = Files.write(dir.resolve(CacheDirectory.TEMP_PREFIX + "1-1-dead"), bytes(14, 100));
        Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
        Path fresh = Files.write(dir.resolve(CacheDirectory.TEMP_PREFIX + "1-1-live"), bytes(15, 100));
        Path unrelated = Files.writeString(dir.resolve("notes.txt"), "kept");
        try (DiskCache cache = DiskCache.open(dir, MiB)) {
            assertThat(cache.stats().entries()).isZero();
            assertThat(cache.stats().bytes()).isZero();
        }
        assertThat(stale).doesNotExist();
        assertThat(fresh).exists();
        assertThat(unrelated).exists();
    }

    @Test
    void directoryThatCannotBeCreated_isARocketExceptionNamingIt() throws Exception {
        Path file = Files.writeString(tmp.resolve("plain-file"), "x");
        Path dir = file.resolve("cache");
        assertThatThrownBy(() -> DiskCache.open(dir, MiB))
                .isInstanceOf(RocketException.class)
                .hasMessageContaining(dir.toString());
    }

    @Test
    void readOnlyDirectory_isARocketExceptionNamingIt() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("ro"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            assumeThat(Files.isWritable(dir)).as("permissions bind this user (not root)").isFalse();
            assertThatThrownBy(() -> DiskCache.open(dir, MiB))
                    .isInstanceOf(RocketException.class)
                    .hasMessageContaining(dir.toString())
                    .hasMessageContaining("not writable");
        } finally {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void nonPositiveLimit_isARocketException() {
        assertThatThrownBy(() -> DiskCache.open(tmp, 0)).isInstanceOf(RocketException.class);
    }

    @Test
    void closedCache_refusesUse() {
        DiskCache cache = DiskCache.open(tmp, MiB);
        cache.close();
        cache.close();
        assertThatThrownBy(() -> cache.read(key("a"), ByteBuffer.allocate(1)))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> cache.write(key("a"), ByteBuffer.allocate(1)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void defaultSize_isHalfTheFreeSpace_cappedAt64GiB() throws Exception {
        Path dir = tmp.resolve("not/yet/there");
        long size = DiskCache.defaultSize(dir);
        long usable = Files.getFileStore(tmp).getUsableSpace();
        assertThat(size).isPositive().isLessThanOrEqualTo(DiskCache.DEFAULT_SIZE_CAP);
        assertThat(size).isCloseTo(Math.min(usable / 2, DiskCache.DEFAULT_SIZE_CAP),
                org.assertj.core.data.Offset.offset(64 * MiB));
        assertThat(dir).doesNotExist();
    }

    private static void flip(Path file, long position) throws Exception {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, position);
            one.put(0, (byte) (one.get(0) ^ 0x5a)).rewind();
            channel.write(one, position);
        }
    }
}
