package io.rocket.cli;

import io.rocket.output.TsvResultSink;
import io.rocket.core.RocketException;
import io.rocket.testkit.NpyFile;
import io.rocket.testapp.RelativeStrings;
import io.rocket.testapp.WordSimilarity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The output file's suffix chooses the format; gzip TSV and its journal cuts; what is refused, in one line. */
class PairOutputsTest {
    private static final String WORDS = WordSimilarity.class.getName();
    static final List<String> KEYS = List.of("alpha", "alphabet", "beta", "betamax", "gamma", "gammon", "delta",
            "deltoid", "epsilon", "eps", "zeta", "zetta");

    @TempDir
    Path dir;

    @Test
    void theSuffixChoosesTheFormatInAnyCase() {
        assertThat(OutputFormat.of("--output", Path.of("a.tsv"))).isEqualTo(OutputFormat.TSV);
        assertThat(OutputFormat.of("--output", Path.of("a.txt"))).isEqualTo(OutputFormat.TSV);
        assertThat(OutputFormat.of("--output", Path.of("pairs"))).isEqualTo(OutputFormat.TSV);
        assertThat(OutputFormat.of("--output", Path.of("/dev/stdout"))).isEqualTo(OutputFormat.TSV);
        assertThat(OutputFormat.of("--output", Path.of("d/A.TSV.GZ"))).isEqualTo(OutputFormat.TSV_GZ);
        assertThat(OutputFormat.of("--output", Path.of("m.npy"))).isEqualTo(OutputFormat.NPY);
    }

    @Test
    void anUnknownSuffixIsRefusedInOneLineBeforeTheRun() {
        ApplicationCommandTest.Result bad = ApplicationCommandTest.run(Invocation.MAIN, WORDS, "--output",
                dir.resolve("pairs.csv").toString(), "a", "b");
        assertThat(bad.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(bad.err().lines().toList()).singleElement().asString()
                .isEqualTo("rocket: --output " + dir.resolve("pairs.csv") + ": unknown format '.csv'; name the "
                        + "file .tsv, .tsv.gz or .npy (see: io.rocket.Main " + WordSimilarity.class.getName()
                        + " --help)");
        assertThat(dir.resolve("pairs.csv")).doesNotExist();
        assertThatThrownBy(() -> OutputFormat.of("--output", Path.of("x.gz"))).isInstanceOf(RocketException.class)
                .hasMessageContaining("unknown format '.gz'");
    }

    @Test
    void anNpyOfResultsThatAreNoNumbersIsRefusedNamingTheApplication() {
        assertThatThrownBy(() -> PairOutputs.check(new RelativeStrings(), Path.of("m.npy"), null,
                OutputSettings.DEFAULTS)).isInstanceOf(RocketException.class)
                .hasMessage("--output m.npy: " + new RelativeStrings().name() + " results are not numbers (String), "
                        + "so they cannot be written as .npy; write .tsv or .tsv.gz, or override Application.score in "
                        + RelativeStrings.class.getName());
        assertThatThrownBy(() -> PairOutputs.check(new WordSimilarity(), null, Path.of("e.npy"),
                OutputSettings.DEFAULTS)).hasMessage("--errors e.npy: failed pairs are written as .tsv or .tsv.gz");
        PairOutputs.check(new WordSimilarity(), Path.of("m.npy"), null, OutputSettings.DEFAULTS);
    }

    @Test
    void aGzipOutputHoldsTheSameLinesAsThePlainOne() throws IOException {
        Path plain = dir.resolve("pairs.tsv");
        Path packed = dir.resolve("pairs.tsv.gz");
        runWords("--output", plain.toString());
        runWords("--output", packed.toString());
        assertThat(sorted(gunzip(packed))).isEqualTo(sorted(Files.readString(plain))).hasSize(1 + 66);
    }

    /** A journal marks, syncs, the run dies, the resumed run cuts back to the mark and appends a new gzip member. */
    @Test
    void aJournalCutsAGzipOutputBackBetweenMembers() throws IOException {
        Path file = dir.resolve("cut.tsv.gz");
        long[] mark;
        TsvResultSink<String, String> first = new TsvResultSink<>(file, null, k -> k, r -> r, "result");
        first.accept(0, 1, "a", "b", "kept");
        mark = first.flush();
        first.accept(0, 2, "a", "c", "lost");
        first.force();
        first.close();
        try (TsvResultSink<String, String> resumed = new TsvResultSink<>(file, null, k -> k, r -> r, "result", true)) {
            resumed.cut(mark);
            resumed.accept(1, 2, "b", "c", "new");
        }
        assertThat(gunzip(file)).isEqualTo("i\tj\tleft\tright\tresult\n0\t1\ta\tb\tkept\n1\t2\tb\tc\tnew\n");
    }

    /** A resumed run rebuilds a dense .npy from the journal's records: positioned writes need no cutting back. */
    @Test
    void aResumedRunRebuildsTheDenseMatrixFromItsJournal() throws IOException {
        Path npy = dir.resolve("m.npy");
        Path journal = dir.resolve("journal");
        runWords("--output", npy.toString(), "--journal", journal.toString());
        byte[] first = Files.readAllBytes(npy);
        Files.writeString(npy, "damaged");
        runWords("--output", npy.toString(), "--journal", journal.toString(), "--resume");
        assertThat(Files.readAllBytes(npy)).isEqualTo(first);
        NpyFile matrix = NpyFile.read(npy);
        assertThat(matrix.shape()).containsExactly(66);
        for (long e = 0; e < 66; e++) {
            assertThat(Double.isNaN(matrix.number(e))).isFalse();
        }
        assertThat(Files.readAllLines(dir.resolve("m.labels.txt"))).isEqualTo(KEYS);
    }

    void runWords(String... options) {
        String[] args = new String[1 + options.length + KEYS.size()];
        args[0] = WORDS;
        System.arraycopy(options, 0, args, 1, options.length);
        for (int k = 0; k < KEYS.size(); k++) {
            args[1 + options.length + k] = KEYS.get(k);
        }
        ApplicationCommandTest.Result result = ApplicationCommandTest.run(Invocation.MAIN, args);
        assertThat(result.code()).as(result.err()).isZero();
    }

    static String gunzip(Path file) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static List<String> sorted(String text) {
        return text.lines().sorted().toList();
    }
}
