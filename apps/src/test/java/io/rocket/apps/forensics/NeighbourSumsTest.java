package io.rocket.apps.forensics;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The open-addressing neighbour map behaves as a map under random adds and removals (backward-shift removal). */
class NeighbourSumsTest {

    @Property(tries = 100)
    void addAndRemove_randomOperations_matchAHashMap(@ForAll @LongRange(min = 0, max = 1_000_000) long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        NeighbourSums map = new NeighbourSums();
        Map<Integer, double[]> expected = new HashMap<>();
        double[] removed = new double[2];
        int keys = 1 + random.nextInt(200);
        for (int op = 0; op < 2000; op++) {
            int key = random.nextInt(keys);
            if (random.nextInt(3) == 0) {
                double[] was = expected.remove(key);
                assertThat(map.remove(key, removed)).isEqualTo(was != null);
                if (was != null) {
                    assertThat(removed).containsExactly(was);
                }
            } else {
                double sum = random.nextInt(100);
                map.add(key, sum, 1);
                expected.merge(key, new double[] {sum, 1}, (a, b) -> new double[] {a[0] + b[0], a[1] + b[1]});
            }
        }
        assertThat(map.size()).isEqualTo(expected.size());
        Map<Integer, double[]> found = new HashMap<>();
        for (int slot = 0; slot < map.capacity(); slot++) {
            if (map.key(slot) >= 0) {
                found.put(map.key(slot), new double[] {map.sum(slot), map.count(slot)});
            }
        }
        assertThat(found).hasSameSizeAs(expected);
        expected.forEach((k, v) -> assertThat(found.get(k)).as("key %d", k).containsExactly(v));
    }
}
