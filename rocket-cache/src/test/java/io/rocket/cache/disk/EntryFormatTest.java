package io.rocket.cache.disk;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static io.rocket.cache.disk.Payloads.bytes;
import static io.rocket.cache.disk.Payloads.copy;
import static io.rocket.cache.disk.Payloads.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The entry layout on its own: what a header holds, and how a read tells a good entry from a damaged one. */
class EntryFormatTest {
    @TempDir
    Path tmp;

    /** Writes {@code key}'s entry of {@code payload} as the cache lays it out, and returns the file. */
    private Path entry(DiskKey key, byte[] payload) throws IOException {
        Path file = tmp.resolve(key.digest());
        ByteBuffer body = ByteBuffer.wrap(payload);
        ByteBuffer head = EntryFormat.head(key, body);
        assertThat(body.position()).isZero();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            channel.write(new ByteBuffer[]{head, body});
        }
        assertThat(file).hasSize(EntryFormat.fileBytes(key, payload.length));
        return file;
    }

    private static long read(Path file, DiskKey key, ByteBuffer target) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            return EntryFormat.read(channel, key, target, file.getParent());
        }
    }

    private static void overwrite(Path file, long position, ByteBuffer bytes) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.write(bytes, position);
        }
    }

    @Test
    void aWrittenEntry_readsBackIntoTheTarget_withoutMovingIt() throws Exception {
        byte[] data = bytes(21, 3000);
        Path file = entry(key("a"), data);
        ByteBuffer target = ByteBuffer.allocate(4000).position(10).limit(3010);
        assertThat(read(file, key("a"), target)).isEqualTo(3000);
        assertThat(target.position()).isEqualTo(10);
        assertThat(target.limit()).isEqualTo(3010);
        assertThat(copy(target, 10, 3000)).isEqualTo(data);
    }

    @Test
    void anotherKeysEntry_orTooSmallATarget_isNoEntryForTheReader_butNotDamage() throws Exception {
        Path file = entry(key("a"), bytes(22, 100));
        assertThat(read(file, key("b"), ByteBuffer.allocate(100))).isEqualTo(-1);
        assertThat(read(file, key("a"), ByteBuffer.allocate(99))).isEqualTo(-1);
        assertThat(read(file, key("a"), ByteBuffer.allocate(100))).isEqualTo(100);
    }

    @Test
    void aChangedPayloadByte_failsTheChecksum() throws Exception {
        Path file = entry(key("a"), bytes(23, 500));
        overwrite(file, EntryFormat.fileBytes(key("a"), 500) - 1, ByteBuffer.wrap(new byte[]{0x5a}));
        assertThatThrownBy(() -> read(file, key("a"), ByteBuffer.allocate(500)))
                .isInstanceOf(EntryFormat.CorruptEntry.class).hasMessageContaining("checksum");
    }

    @Test
    void anotherFormatVersion_aBadMagic_orAWrongLength_isDamage() throws Exception {
        Path file = entry(key("a"), bytes(24, 500));
        overwrite(file, 4, ByteBuffer.allocate(4).putInt(0, DiskCache.FORMAT_VERSION + 1));
        assertThatThrownBy(() -> read(file, key("a"), ByteBuffer.allocate(500)))
                .isInstanceOf(EntryFormat.CorruptEntry.class).hasMessageContaining("format version");

        overwrite(file, 4, ByteBuffer.allocate(4).putInt(0, DiskCache.FORMAT_VERSION));
        overwrite(file, 8, ByteBuffer.allocate(8).putLong(0, 501));
        assertThatThrownBy(() -> read(file, key("a"), ByteBuffer.allocate(600)))
                .isInstanceOf(EntryFormat.CorruptEntry.class).hasMessageContaining("cannot hold");

        overwrite(file, 0, ByteBuffer.allocate(4).putInt(0, 0x12345678));
        assertThatThrownBy(() -> read(file, key("a"), ByteBuffer.allocate(600)))
                .isInstanceOf(EntryFormat.CorruptEntry.class).hasMessageContaining("bad magic 0x12345678");
    }

    @Test
    void aFileShorterThanAHeader_isDamage() throws Exception {
        Path file = entry(key("a"), bytes(25, 10));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(EntryFormat.HEADER_BYTES - 1);
        }
        assertThatThrownBy(() -> read(file, key("a"), ByteBuffer.allocate(10)))
                .isInstanceOf(EntryFormat.CorruptEntry.class).hasMessageContaining("truncated");
    }

    @Test
    void entryNames_areLowerCaseSha256Hex() {
        assertThat(EntryFormat.isEntryName(key("a").digest())).isTrue();
        assertThat(EntryFormat.isEntryName(key("a").digest().toUpperCase())).isFalse();
        assertThat(EntryFormat.isEntryName(key("a").digest().substring(1))).isFalse();
        assertThat(EntryFormat.isEntryName(CacheDirectory.TEMP_PREFIX + "1-1-0")).isFalse();
        assertThat(EntryFormat.isEntryName(CacheDirectory.LOCK_FILE)).isFalse();
    }
}
