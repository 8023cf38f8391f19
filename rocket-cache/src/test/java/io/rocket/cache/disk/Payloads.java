package io.rocket.cache.disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/** Test data for the disk cache: payloads derived from a seed, keys without inputs, and directory listings. */
final class Payloads {
    static final String JOB = "synthetic --dims 3 --seed 7";

    private Payloads() {
    }

    static byte[] bytes(long seed, int size) {
        byte[] bytes = new byte[size];
        new SplittableRandom(seed).nextBytes(bytes);
        return bytes;
    }

    static ByteBuffer direct(byte[] bytes) {
        return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    }

    /** The {@code length} bytes of {@code buffer} from {@code start}, without moving it. */
    static byte[] copy(ByteBuffer buffer, int start, int length) {
        byte[] out = new byte[length];
        buffer.get(start, out);
        return out;
    }

    static DiskKey key(String label) {
        return DiskKey.of(JOB, "parsed", label, List.of(), List.of());
    }

    static List<Path> entryFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> EntryFormat.isEntryName(f.getFileName().toString())).toList();
        }
    }

    static long entryBytes(Path dir) throws IOException {
        long total = 0;
        for (Path f : entryFiles(dir)) {
            total += Files.size(f);
        }
        return total;
    }

    static List<Path> tempFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return new ArrayList<>(files.filter(f -> f.getFileName().toString().startsWith(CacheDirectory.TEMP_PREFIX))
                    .toList());
        }
    }
}
