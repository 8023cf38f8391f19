package io.rocket.output;

import io.rocket.testkit.NpyFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The {@code .npy} writers read back by the format's definition ({@link NpyFile}), without NumPy: headers, element
 * offsets, the NaN of pairs never written, positioned writes in any order, sparse records and their count.
 */
class NpyFilesTest {

    @TempDir
    Path dir;

    @Test
    void aHeaderIsVersionOneAlignedTo64AndEndsInANewline() throws IOException {
        byte[] header = NpyHeader.bytes("'<f4'", 0, 10);
        assertThat(header.length % 64).isZero();
        assertThat(header[6]).isEqualTo((byte) 1);
        assertThat(header[header.length - 1]).isEqualTo((byte) '\n');
        String text = new String(header, 10, header.length - 10, StandardCharsets.US_ASCII);
        assertThat(text).startsWith("{'descr': '<f4', 'fortran_order': False, 'shape': (10,), }");
        assertThat(NpyHeader.bytes("'<f8'", 0, 3, 4)).asString(StandardCharsets.ISO_8859_1).contains("(3, 4), }");
        assertThat(Short.toUnsignedInt((short) ((header[8] & 0xff) | (header[9] << 8)))).isEqualTo(header.length - 10);
    }

    @Test
    void aHeaderLongerThan64KiBIsVersionTwo() throws IOException {
        byte[] header = NpyHeader.bytes("'<f4'", 70_000, 5);
        assertThat(header[6]).isEqualTo((byte) 2);
        Path file = dir.resolve("v2.npy");
        Files.write(file, header);
        NpyFile npy = NpyFile.read(file);
        assertThat(npy.version()).isEqualTo(2);
        assertThat(npy.headerLength()).isEqualTo(header.length).isGreaterThanOrEqualTo(70_000);
        assertThat(npy.shape()).containsExactly(5);
    }

    /** Every pair of n items in a shuffled order, through two block slots so that blocks are written and reopened. */
    @Test
    void aDenseTriangleHoldsEveryPairAtItsCondensedIndexWhateverTheOrder() throws IOException {
        for (NpyDtype dtype : NpyDtype.values()) {
            int n = 300; // 44,850 pairs: many 4 KiB blocks
            Path file = dir.resolve("t-" + dtype + ".npy");
            List<int[]> pairs = shuffledPairs(n, 7);
            try (DenseNpySink<Integer, Double> sink = new DenseNpySink<>(file, new TriangleLayout(n), dtype,
                    Double::doubleValue, 2)) {
                for (int[] p : pairs) {
                    if (p[0] == 5 && p[1] == 9) {
                        sink.failed(p[0], p[1], p[0], p[1], new IllegalStateException("no"));
                    } else if (!(p[0] == 0 && p[1] == 1)) { // (0, 1) never arrives
                        sink.accept(p[0], p[1], p[0], p[1], value(p[0], p[1]));
                    }
                }
            }
            NpyFile npy = NpyFile.read(file);
            assertThat(npy.descr()).isEqualTo("'" + dtype.descr() + "'");
            assertThat(npy.shape()).containsExactly((long) n * (n - 1) / 2);
            assertThat(Files.size(file)).isEqualTo(npy.headerLength() + npy.elements() * dtype.bytes());
            long k = 0;
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++, k++) {
                    double expected = (i == 5 && j == 9) || (i == 0 && j == 1) ? Double.NaN
                            : dtype == NpyDtype.FLOAT32 ? (float) value(i, j) : value(i, j);
                    assertThat(Double.compare(npy.number(k), expected)).as("(%d, %d)", i, j).isZero();
                }
            }
        }
    }

    @Test
    void aDenseRectangleIsRowMajorAndFillsTheMirrorOfASharedPair() throws IOException {
        // Rows 0, 1, 2 against columns 2, 3: item 2 is on both, so (2, 2) is never a pair.
        RectangleLayout layout = new RectangleLayout(4, new int[] {0, 1, 2}, new int[] {2, 3}, true);
        Path file = dir.resolve("r.npy");
        try (DenseNpySink<Integer, Double> sink = new DenseNpySink<>(file, layout, NpyDtype.FLOAT64,
                Double::doubleValue)) {
            for (int[] p : shuffledPairs(4, 3)) {
                if (layout.index(p[0], p[1]) >= 0 || layout.index(p[1], p[0]) >= 0) {
                    sink.accept(p[0], p[1], p[0], p[1], value(p[0], p[1]));
                }
            }
            assertThatThrownBy(() -> sink.accept(0, 1, 0, 1, 1.0)).hasMessageContaining("pair (0, 1) has no element");
        }
        NpyFile npy = NpyFile.read(file);
        assertThat(npy.shape()).containsExactly(3, 2);
        double[] expected = {value(0, 2), value(0, 3), value(1, 2), value(1, 3), Double.NaN, value(2, 3)};
        for (int e = 0; e < expected.length; e++) {
            assertThat(Double.compare(npy.number(e), expected[e])).as("element %d", e).isZero();
        }
    }

    @Test
    void sparseRecordsAreAppendedAndTheHeaderCountsThem() throws IOException {
        Path file = dir.resolve("s.npy");
        try (SparseNpySink<Integer, Double> sink = new SparseNpySink<>(file, NpyDtype.FLOAT32, Double::doubleValue,
                false)) {
            sink.accept(3, 7, 3, 7, 0.5);
            sink.accept(1, 2, 1, 2, -2.25);
            sink.failed(4, 5, 4, 5, new IllegalStateException("not a record"));
        }
        NpyFile npy = NpyFile.read(file);
        assertThat(npy.descr()).isEqualTo("[('i', '<i4'), ('j', '<i4'), ('score', '<f4')]");
        assertThat(npy.shape()).containsExactly(2);
        assertThat(Files.size(file)).isEqualTo(npy.headerLength() + 2 * 12);
        assertThat(npy.data().getInt(0)).isEqualTo(3);
        assertThat(npy.data().getInt(4)).isEqualTo(7);
        assertThat(npy.data().getFloat(8)).isEqualTo(0.5f);
        assertThat(npy.data().getInt(12)).isEqualTo(1);
        assertThat(npy.data().getFloat(20)).isEqualTo(-2.25f);
    }

    /** What a run journal does: mark, force (the header counts what is durable), crash, resume: cut back, append. */
    @Test
    void aJournalCutsSparseRecordsBackToAMarkAndTheResumedFileCountsWhatItHolds() throws IOException {
        Path file = dir.resolve("j.npy");
        long[] mark;
        SparseNpySink<Integer, Double> first = new SparseNpySink<>(file, NpyDtype.FLOAT64, Double::doubleValue, false);
        first.accept(0, 1, 0, 1, 1.0);
        first.accept(0, 2, 0, 2, 2.0);
        mark = first.flush();
        first.accept(1, 2, 1, 2, 3.0); // after the mark: lost with the crash
        first.force();
        assertThat(NpyFile.read(file).shape()).as("the header counts what the journal recorded").containsExactly(2);
        first.close();
        assertThat(NpyFile.read(file).shape()).containsExactly(3);

        try (SparseNpySink<Integer, Double> resumed = new SparseNpySink<>(file, NpyDtype.FLOAT64,
                Double::doubleValue, true)) {
            resumed.cut(mark);
            resumed.accept(1, 2, 1, 2, 4.0);
        }
        NpyFile npy = NpyFile.read(file);
        assertThat(npy.shape()).containsExactly(3);
        assertThat(npy.data().getDouble(2 * 16 + 8)).isEqualTo(4.0);
        try (SparseNpySink<Integer, Double> bad = new SparseNpySink<>(file, NpyDtype.FLOAT64, Double::doubleValue,
                true)) {
            assertThatThrownBy(() -> bad.cut(new long[] {mark[0] + 3})).hasMessageContaining("whole number");
        }
    }

    @Test
    void labelFilesNameEachAxisBesideTheArray() throws IOException {
        Path npy = dir.resolve("m.npy");
        List<Path> written = NpyLabels.write(npy, new RectangleLayout(3, new int[] {2}, new int[] {0, 1}, true)
                .axes(), i -> "item\n" + i);
        assertThat(written).containsExactly(dir.resolve("m.rows.txt"), dir.resolve("m.cols.txt"));
        assertThat(Files.readAllLines(written.get(1))).containsExactly("item 0", "item 1");
        assertThat(NpyLabels.path(npy, "labels")).isEqualTo(dir.resolve("m.labels.txt"));
    }

    static double value(int i, int j) {
        return i * 1000.0 + j + 1.0 / (3 + i + j);
    }

    static List<int[]> shuffledPairs(int n, long seed) {
        List<int[]> pairs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                pairs.add(new int[] {i, j});
            }
        }
        Collections.shuffle(pairs, new Random(seed));
        return pairs;
    }
}
