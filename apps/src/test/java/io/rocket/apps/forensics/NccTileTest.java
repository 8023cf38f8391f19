package io.rocket.apps.forensics;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.Tile;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The cache-blocked NCC of a tile equals the two-pass NCC of each pair: for patterns that are mixes of each other
 * (scores from −1 to 1), one with a mean far from zero, a constant one, sizes that are not a multiple of the block, pairs
 * in rows (two of one row at a time) and alone, and the same tile twice (the items' sums then come from the first).
 */
class NccTileTest {

    private static final class Slot extends DeviceBuffer {
        Slot(ByteBuffer memory) {
            super(memory);
        }
    }

    @Property(tries = 15)
    void aTile_givesEachPairsTwoPassNcc(@ForAll @IntRange(min = 1, max = 70) int width,
                                        @ForAll @IntRange(min = 1, max = 90) int height,
                                        @ForAll @IntRange(min = 2, max = 9) int count,
                                        @ForAll @LongRange(min = 0, max = 1000) long seed) {
        Random random = new Random(seed);
        int n = width * height;
        float[] base = Reference.gaussian(n, seed);
        List<Slot> items = new ArrayList<>();
        for (int t = 0; t < count; t++) {
            float[] noise = Reference.gaussian(n, seed + 1 + t);
            double mix = random.nextDouble() * 2 - 1;
            float shift = t == 1 ? 40f : 0f; // a mean 40 standard deviations from zero
            ByteBuffer b = ByteBuffer.allocateDirect((int) PrnuLayout.patternBytes(height, width))
                    .order(ByteOrder.LITTLE_ENDIAN);
            PrnuLayout.writeHeader(b, 0, PrnuLayout.KIND_PATTERN, height, width);
            for (int i = 0; i < n; i++) {
                float v = t == count - 1 && count > 3 ? 0.5f : (float) (mix * base[i] + noise[i]) + shift;
                b.putFloat(PrnuLayout.HEADER_BYTES + 4 * i, v);
            }
            Slot slot = new Slot(b);
            slot.length(b.capacity());
            items.add(slot);
        }
        List<int[]> pairs = new ArrayList<>();
        for (int a = 0; a < count; a++) {
            for (int b = 0; b < count; b++) {
                if (a != b && random.nextInt(4) > 0) {
                    pairs.add(new int[] {a, b});
                }
            }
        }
        if (pairs.isEmpty()) {
            pairs.add(new int[] {0, 1});
        }
        ByteBuffer results = ByteBuffer.allocateDirect(8 * pairs.size()).order(ByteOrder.LITTLE_ENDIAN);
        List<Slot> slots = new ArrayList<>();
        for (int p = 0; p < pairs.size(); p++) {
            slots.add(new Slot(results.slice(8 * p, 8).order(ByteOrder.LITTLE_ENDIAN)));
        }
        Tile<Path> tile = new Tile<>() {
            public int items() {
                return count;
            }

            public Path key(int item) {
                return Path.of("p" + item + ".jpg");
            }

            public DeviceBuffer item(int item) {
                items.get(item).handOverForReading();
                return items.get(item);
            }

            public int pairs() {
                return pairs.size();
            }

            public int left(int pair) {
                return pairs.get(pair)[0];
            }

            public int right(int pair) {
                return pairs.get(pair)[1];
            }

            public DeviceBuffer result(int pair) {
                return slots.get(pair);
            }

            public DeviceBuffer results() {
                return null;
            }

            public long resultStride() {
                return 8;
            }

            public void fail(int pair, Throwable cause) {
                throw new AssertionError(cause);
            }
        };
        NccTile ncc = new NccTile();
        for (int round = 0; round < 2; round++) {
            ncc.compare(tile);
            for (int p = 0; p < pairs.size(); p++) {
                ByteBuffer x = items.get(pairs.get(p)[0]).byteBuffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
                ByteBuffer y = items.get(pairs.get(p)[1]).byteBuffer().duplicate().order(ByteOrder.LITTLE_ENDIAN);
                double expected = NccComparator.ncc(x.position(0), y.position(0));
                assertThat(slots.get(p).length()).isEqualTo(ForensicsPipeline.RESULT_BYTES);
                assertThat(results.getDouble(8 * p)).as("pair %d round %d", p, round)
                        .isCloseTo(expected, within(1e-5 * Math.max(Math.abs(expected), 0.01)));
            }
        }
    }
}
