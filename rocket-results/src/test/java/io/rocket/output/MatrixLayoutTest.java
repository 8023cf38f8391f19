package io.rocket.output;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The two dense layouts: SciPy's condensed triangle and the row-major rectangle. */
class MatrixLayoutTest {

    @Property(tries = 60)
    void theTriangleIsSciPysCondensedOrder(@ForAll @IntRange(min = 0, max = 70) int n) {
        TriangleLayout layout = new TriangleLayout(n);
        long next = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                assertThat(layout.index(i, j)).isEqualTo(next).isEqualTo(layout.index(j, i));
                next++;
            }
            assertThat(layout.index(i, i)).isEqualTo(-1);
        }
        assertThat(layout.elements()).isEqualTo(next);
        assertThat(layout.shape()).containsExactly(next);
        assertThat(layout.axes()).singleElement().satisfies(a -> {
            assertThat(a.name()).isEqualTo("labels");
            assertThat(a.items()).hasSize(n);
        });
    }

    @Test
    void theTriangleIndexHoldsForItemsBeyondIntRange() {
        int n = 100_000;
        TriangleLayout layout = new TriangleLayout(n);
        assertThat(layout.elements()).isEqualTo(4_999_950_000L);
        assertThat(layout.index(n - 2, n - 1)).isEqualTo(layout.elements() - 1);
        assertThat(layout.index(1, 2)).isEqualTo(n - 1);
    }

    @Property(tries = 60)
    void aRectangleIsRowMajorAndEveryElementHasOnePair(@ForAll @IntRange(min = 1, max = 12) int rows,
                                                       @ForAll @IntRange(min = 1, max = 12) int cols,
                                                       @ForAll @IntRange(min = 0, max = 12) int shared) {
        // Items 0..rows-1 are rows; the columns are the last `shared` rows followed by new items.
        int overlap = Math.min(shared, Math.min(rows, cols));
        int[] r = new int[rows];
        int[] c = new int[cols];
        for (int k = 0; k < rows; k++) {
            r[k] = k;
        }
        for (int k = 0; k < cols; k++) {
            c[k] = k < overlap ? rows - overlap + k : rows + k;
        }
        int items = rows + cols;
        RectangleLayout asymmetric = new RectangleLayout(items, r, c, false);
        assertThat(asymmetric.shape()).containsExactly(rows, cols);
        for (int a = 0; a < rows; a++) {
            for (int b = 0; b < cols; b++) {
                long expected = r[a] == c[b] ? -1 : (long) a * cols + b;
                assertThat(asymmetric.index(r[a], c[b])).isEqualTo(expected);
            }
        }
        // Symmetric: each unordered pair of distinct items, computed once, fills every element it owns.
        RectangleLayout symmetric = new RectangleLayout(items, r, c, true);
        Set<Long> filled = new HashSet<>();
        long[] into = new long[2];
        for (int i = 0; i < items; i++) {
            for (int j = i + 1; j < items; j++) {
                int count = symmetric.indices(i, j, into);
                for (int k = 0; k < count; k++) {
                    assertThat(filled.add(into[k])).as("element %d filled twice", into[k]).isTrue();
                }
            }
        }
        assertThat((long) filled.size()).isEqualTo(symmetric.elements() - overlap); // the shared items' diagonal
    }

    @Test
    void anAsymmetricRectangleFillsOnlyItsOwnDirection() {
        RectangleLayout layout = new RectangleLayout(4, new int[] {0, 1}, new int[] {1, 2, 3}, false);
        long[] into = new long[2];
        assertThat(layout.indices(0, 2, into)).isEqualTo(1);
        assertThat(into[0]).isEqualTo(1);
        assertThat(layout.indices(2, 0, into)).isZero();
        assertThat(new RectangleLayout(4, new int[] {0, 1}, new int[] {1, 2, 3}, true).indices(2, 0, into))
                .isEqualTo(1);
        assertThat(layout.axes()).extracting(MatrixLayout.Axis::name).containsExactly("rows", "cols");
    }

    @Test
    void aRectangleRefusesAnItemTwiceOrOutOfRange() {
        assertThatThrownBy(() -> new RectangleLayout(3, new int[] {0, 0}, new int[] {1}, true))
                .hasMessage("row item 0 appears twice");
        assertThatThrownBy(() -> new RectangleLayout(3, new int[] {0}, new int[] {3}, true))
                .hasMessage("column item 3 is outside 0..2");
    }
}
