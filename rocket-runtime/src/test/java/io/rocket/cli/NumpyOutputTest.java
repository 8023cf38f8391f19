package io.rocket.cli;

import io.rocket.core.ResultSink;
import io.rocket.output.NpyDtype;
import io.rocket.output.RectangleLayout;
import io.rocket.testapp.WordSimilarity;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code .npy} outputs opened by NumPy itself ({@code np.load(path, mmap_mode='r')}, as a user does) hold what
 * the TSV of the same run holds: the dense triangle in float32 and float64, a rectangle, sparse records. Skips, with
 * one line, where {@code python3} with NumPy is missing (Debian: {@code python3-numpy}).
 */
class NumpyOutputTest {

    /** Prints the array's dtype, shape, and every element (records: i j score) on its own line. */
    private static final String LOAD = String.join("\n",
            "import sys, numpy as np",
            "a = np.load(sys.argv[1], mmap_mode='r')",
            "print(a.dtype.str if a.dtype.names is None else ','.join(a.dtype.names))",
            "print(' '.join(str(d) for d in a.shape))",
            "for x in a.ravel():",
            "    print(repr(float(x)) if a.dtype.names is None else '%d %d %r' % (x['i'], x['j'], float(x['score'])))");

    @TempDir
    Path dir;

    @BeforeAll
    static void needsNumpy() {
        Assumptions.assumeTrue(numpyLoads(), "python3 with NumPy not found (Debian: python3-numpy); the .npy checks "
                + "against NumPy skip");
    }

    private static boolean numpyLoads() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import numpy").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Test
    void theDenseTriangleEqualsTheTsvInBothTypes() throws Exception {
        Map<Long, Double> tsv = tsvResults();
        int n = PairOutputsTest.KEYS.size();
        for (String dtype : new String[] {"float32", "float64"}) {
            Path npy = dir.resolve("t-" + dtype + ".npy");
            words().runWords("--output", npy.toString(), "--npy-dtype", dtype);
            List<String> lines = load(npy);
            assertThat(lines.get(0)).isEqualTo(dtype.equals("float32") ? "<f4" : "<f8");
            assertThat(lines.get(1)).isEqualTo(String.valueOf(n * (n - 1) / 2));
            int k = 2;
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++, k++) {
                    double expected = tsv.get(key(i, j));
                    double wanted = dtype.equals("float32") ? (float) expected : expected;
                    assertThat(Double.parseDouble(lines.get(k))).as("(%d, %d) %s", i, j, dtype).isEqualTo(wanted);
                }
            }
            assertThat(Files.readAllLines(dir.resolve("t-" + dtype + ".labels.txt")))
                    .isEqualTo(PairOutputsTest.KEYS);
        }
    }

    /** Rows 0..4 against columns 3..11, sharing items 3 and 4: the block of the full matrix, NaN on (3,3), (4,4). */
    @Test
    void aRectangleEqualsTheMatchingBlockOfTheFullResult() throws Exception {
        Map<Long, Double> tsv = tsvResults();
        int[] rows = {0, 1, 2, 3, 4};
        int[] cols = {3, 4, 5, 6, 7, 8, 9, 10, 11};
        Path npy = dir.resolve("rect.npy");
        RectangleLayout layout = new RectangleLayout(PairOutputsTest.KEYS.size(), rows, cols, true);
        Map<Long, Double> block = new HashMap<>(); // the pairs a query x reference space computes
        tsv.forEach((pair, score) -> {
            int i = (int) (pair >>> 32);
            int j = (int) (long) pair;
            if (layout.index(i, j) >= 0 || layout.index(j, i) >= 0) {
                block.put(pair, score);
            }
        });
        feed(npy, OutputSettings.DEFAULTS.withDtype(NpyDtype.FLOAT64).withLayout(layout), block);
        List<String> lines = load(npy);
        assertThat(lines.get(1)).isEqualTo("5 9");
        int k = 2;
        for (int r : rows) {
            for (int c : cols) {
                String element = lines.get(k++);
                if (r == c) {
                    assertThat(element).isEqualTo("nan");
                } else {
                    assertThat(Double.parseDouble(element)).as("(%d, %d)", r, c).isEqualTo(tsv.get(key(Math.min(r, c), Math.max(r, c))));
                }
            }
        }
        assertThat(Files.readAllLines(dir.resolve("rect.rows.txt"))).isEqualTo(PairOutputsTest.KEYS.subList(0, 5));
        assertThat(Files.readAllLines(dir.resolve("rect.cols.txt"))).isEqualTo(PairOutputsTest.KEYS.subList(3, 12));
    }

    /** The pairs a reduction keeps (here: similarity above 0.1) as (i, j, score) records, in arrival order. */
    @Test
    void sparseRecordsEqualTheKeptPairsOfTheTsv() throws Exception {
        Map<Long, Double> tsv = tsvResults();
        Map<Long, Double> kept = new HashMap<>();
        tsv.forEach((pair, score) -> {
            if (score > 0.1) {
                kept.put(pair, score);
            }
        });
        assertThat(kept).isNotEmpty().hasSizeLessThan(tsv.size());
        Path npy = dir.resolve("kept.npy");
        feed(npy, OutputSettings.DEFAULTS.withDtype(NpyDtype.FLOAT64).withSparse(true), kept);
        List<String> lines = load(npy);
        assertThat(lines.get(0)).isEqualTo("i,j,score");
        assertThat(lines.get(1)).isEqualTo(String.valueOf(kept.size()));
        Map<Long, Double> loaded = new HashMap<>();
        for (String line : lines.subList(2, lines.size())) {
            String[] f = line.split(" ");
            loaded.put(key(Integer.parseInt(f[0]), Integer.parseInt(f[1])), Double.parseDouble(f[2]));
        }
        assertThat(loaded).isEqualTo(kept);
    }

    /** Hands the given results to the sink {@link PairOutputs} opens for {@code settings}, as a run would. */
    private static void feed(Path npy, OutputSettings settings, Map<Long, Double> results) throws Exception {
        WordSimilarity app = new WordSimilarity();
        List<String> keys = PairOutputsTest.KEYS;
        try (ResultSink<String, Double> sink = PairOutputs.open(app, keys, npy, null, null, String::valueOf, "result",
                false, settings)) {
            for (Map.Entry<Long, Double> e : results.entrySet()) {
                int i = (int) (e.getKey() >>> 32);
                int j = (int) (long) e.getKey();
                sink.accept(i, j, keys.get(i), keys.get(j), e.getValue());
            }
        }
    }

    private PairOutputsTest words() {
        PairOutputsTest words = new PairOutputsTest();
        words.dir = dir;
        return words;
    }

    /** The run's TSV: (i, j) to result. */
    private Map<Long, Double> tsvResults() throws IOException {
        Path tsv = dir.resolve("all.tsv");
        if (!Files.exists(tsv)) {
            words().runWords("--output", tsv.toString());
        }
        Map<Long, Double> results = new HashMap<>();
        for (String line : Files.readAllLines(tsv).subList(1, PairOutputsTest.KEYS.size() * 11 / 2 + 1)) {
            String[] f = line.split("\t");
            results.put(key(Integer.parseInt(f[0]), Integer.parseInt(f[1])), Double.parseDouble(f[4]));
        }
        return results;
    }

    private static long key(int i, int j) {
        return ((long) i << 32) | j;
    }

    private static List<String> load(Path npy) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("python3", "-c", LOAD, npy.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return new ArrayList<>(out.lines().toList());
    }
}
