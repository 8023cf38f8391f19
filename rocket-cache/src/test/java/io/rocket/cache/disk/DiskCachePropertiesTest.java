package io.rocket.cache.disk;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.rocket.cache.disk.Payloads.copy;
import static io.rocket.cache.disk.Payloads.key;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Any sequence of writes and reads of a few keys with assorted sizes, single-threaded so jqwik can shrink failures:
 * after every write the entry files fit in the limit, and every hit returns exactly the bytes last stored for its key.
 */
class DiskCachePropertiesTest {
    private static final long LIMIT = 12_000;
    private static final int KEYS = 6;

    /** One step: write {@code size} bytes derived from {@code seed} as key {@code k}, or read key {@code k}. */
    record Op(boolean write, int k, int size, long seed) {
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Op> op = Combinators.combine(
                Arbitraries.of(true, false),
                Arbitraries.integers().between(0, KEYS - 1),
                // Mostly sizes that fit a few times over, sometimes ones that cannot fit at all.
                Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(0, 5_000)),
                        net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(11_800, 14_000))),
                Arbitraries.longs().withoutEdgeCases()).as(Op::new);
        return op.list().ofMinSize(1).ofMaxSize(40);
    }

    @Property(tries = 300)
    void limitHoldsAfterEveryWrite_andHitsReturnWhatWasStored(@ForAll("ops") List<Op> ops) throws IOException {
        Path dir = Files.createTempDirectory("rocket-disk-cache-property");
        try (DiskCache cache = DiskCache.open(dir, LIMIT)) {
            Map<Integer, byte[]> stored = new HashMap<>();
            ByteBuffer target = ByteBuffer.allocateDirect(16_000);
            for (Op op : ops) {
                DiskKey key = key("item-" + op.k());
                if (op.write()) {
                    byte[] data = Payloads.bytes(op.seed(), op.size());
                    cache.write(key, ByteBuffer.wrap(data));
                    if (EntryFormat.HEADER_BYTES + key.textBytes().length + data.length <= LIMIT) {
                        stored.put(op.k(), data);
                    }
                    assertThat(Payloads.entryBytes(dir)).isLessThanOrEqualTo(LIMIT);
                    assertThat(cache.stats().bytes()).isEqualTo(Payloads.entryBytes(dir));
                } else {
                    long n = cache.read(key, target);
                    if (n >= 0) {
                        assertThat(stored).containsKey(op.k());
                        assertThat(copy(target, 0, (int) n)).isEqualTo(stored.get(op.k()));
                    }
                }
            }
            assertThat(cache.stats().corrupt()).isZero();
            assertThat(Payloads.tempFiles(dir)).isEmpty();
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
    }
}
