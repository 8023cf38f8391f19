package io.rocket.apps.phylogenetics;

import static io.rocket.apps.phylogenetics.Proteomes.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class CvDistanceTest {

    /** A vector buffer with the given keys and values (not necessarily unit length), at position {@code offset}. */
    static ByteBuffer vector(int offset, int k, int[] keys, float[] values) {
        ByteBuffer b = ByteBuffer.allocateDirect(offset + 8 + 8 * keys.length).order(ByteOrder.LITTLE_ENDIAN);
        b.position(offset);
        b.putInt(keys.length).putInt(k);
        for (int key : keys) {
            b.putInt(key);
        }
        for (float v : values) {
            b.putFloat(v);
        }
        return b.position(offset);
    }

    @Test
    void correlation_sharedKeysOnly_sumsProducts() {
        ByteBuffer a = vector(0, 5, new int[] {1, 4, 9, 30}, new float[] {0.5f, 0.5f, 0.5f, 0.5f});
        ByteBuffer b = vector(12, 5, new int[] {0, 4, 9, 31}, new float[] {0.1f, 0.2f, -0.4f, 0.3f});

        assertThat(CvDistance.correlation(a, b)).isCloseTo(0.5 * 0.2 - 0.5 * 0.4, within(1e-7));
        assertThat(CvDistance.distance(a, b)).isCloseTo((1 + 0.1) / 2, within(1e-7));
        assertThat(a.position()).isZero();
        assertThat(b.position()).isEqualTo(12);
    }

    @Test
    void distance_identicalProteomes_zero() {
        ByteBuffer v = Proteomes.vector(bytes(Proteomes.fasta(CompositionVectorBuilderTest.randomProtein(4000, 5))), 5);

        assertThat(CvDistance.distance(v, v)).isCloseTo(0.0, within(1e-6));
    }

    @Test
    void distance_disjointKeys_half() {
        ByteBuffer a = vector(0, 3, new int[] {1, 2}, new float[] {0.6f, 0.8f});
        ByteBuffer b = vector(0, 3, new int[] {3}, new float[] {1f});
        ByteBuffer empty = vector(0, 3, new int[0], new float[0]);

        assertThat(CvDistance.distance(a, b)).isEqualTo(0.5);
        assertThat(CvDistance.distance(a, empty)).isEqualTo(0.5);
    }

    @Test
    void compare_writesDoubleAtResultPosition() {
        ByteBuffer a = vector(0, 3, new int[] {1, 2}, new float[] {0.6f, 0.8f});
        ByteBuffer result = ByteBuffer.allocateDirect(24).order(ByteOrder.LITTLE_ENDIAN).position(8);

        CvDistance.compare(a, a, result);

        assertThat(result.position()).isEqualTo(8);
        assertThat(CvDistance.readResult(result)).isCloseTo(0.0, within(1e-7));
        assertThat(result.getLong(0)).isZero();
    }

    @Test
    void correlation_differentK_throws() {
        ByteBuffer a = vector(0, 3, new int[] {1}, new float[] {1f});
        ByteBuffer b = vector(0, 4, new int[] {1}, new float[] {1f});

        assertThatThrownBy(() -> CvDistance.correlation(a, b)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("different K: 3 and 4");
    }

    @Property(tries = 200)
    void correlation_randomSparseVectors_matchesMapDotProductAndIsSymmetric(
            @ForAll @Size(max = 40) Map<@IntRange(max = 60) Integer, @IntRange(min = -100, max = 100) Integer> left,
            @ForAll @Size(max = 40) Map<@IntRange(max = 60) Integer, @IntRange(min = -100, max = 100) Integer> right) {
        ByteBuffer a = fromMap(left);
        ByteBuffer b = fromMap(right);
        double expected = 0;
        for (var e : left.entrySet()) {
            Integer other = right.get(e.getKey());
            if (other != null) {
                expected += (e.getValue() / 100f) * (double) (other / 100f);
            }
        }

        assertThat(CvDistance.correlation(a, b)).isCloseTo(expected, within(1e-9));
        assertThat(CvDistance.correlation(b, a)).isEqualTo(CvDistance.correlation(a, b));
    }

    private static ByteBuffer fromMap(Map<Integer, Integer> map) {
        TreeMap<Integer, Integer> sorted = new TreeMap<>(map);
        int[] keys = sorted.keySet().stream().mapToInt(Integer::intValue).toArray();
        float[] values = new float[keys.length];
        int i = 0;
        for (int v : sorted.values()) {
            values[i++] = v / 100f;
        }
        return vector(0, 5, keys, values);
    }
}
