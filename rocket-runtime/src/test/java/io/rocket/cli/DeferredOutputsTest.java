package io.rocket.cli;

import io.rocket.output.TsvResultSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Pair outputs opened only once a run delivers, written out on demand, and ended on a whole line when stopped. */
class DeferredOutputsTest {

    @TempDir
    Path dir;

    private DeferredOutputs<String, String> outputs(Path file, AtomicInteger opened) {
        return new DeferredOutputs<>(() -> {
            opened.incrementAndGet();
            return new TsvResultSink<>(file, null, k -> k, r -> r, "result");
        }, file.toString());
    }

    @Test
    void aRunRefusedBeforeItsFirstResult_leavesTheFileAsItWas() throws Exception {
        Path file = dir.resolve("pairs.tsv");
        Files.writeString(file, "an earlier run's results\n");
        AtomicInteger opened = new AtomicInteger();
        try (DeferredOutputs<String, String> outputs = outputs(file, opened)) {
            assertThat(outputs.opened()).isFalse();
            outputs.writeOut(); // the writer thread's tick before any result
        }
        assertThat(opened).hasValue(0);
        assertThat(file).hasContent("an earlier run's results");
    }

    @Test
    void theFirstResultOpensTheFile_once_andWriteOutPutsWhatItHoldsOnDisk() throws Exception {
        Path file = dir.resolve("pairs.tsv");
        AtomicInteger opened = new AtomicInteger();
        try (DeferredOutputs<String, String> outputs = outputs(file, opened)) {
            outputs.accept(0, 1, "a", "b", "x");
            outputs.accept(0, 2, "a", "c", "y");
            assertThat(opened).hasValue(1);
            assertThat(Files.size(file)).as("held in memory until written out").isZero();
            outputs.writeOut();
            assertThat(Files.readAllLines(file)).containsExactly("i\tj\tleft\tright\tresult", "0\t1\ta\tb\tx",
                    "0\t2\ta\tc\ty");
            assertThat(outputs.resultsWritten()).isEqualTo(2);
        }
    }

    @Test
    void finish_writesTheHeaderOfARunWithoutResults() throws Exception {
        Path file = dir.resolve("pairs.tsv");
        try (DeferredOutputs<String, String> outputs = outputs(file, new AtomicInteger())) {
            outputs.finish();
        }
        assertThat(Files.readAllLines(file)).containsExactly("i\tj\tleft\tright\tresult");
    }

    @Test
    void stop_endsTheFileOnAWholeLine_andDropsLaterResults() throws Exception {
        Path file = dir.resolve("pairs.tsv.gz");
        try (DeferredOutputs<String, String> outputs = outputs(file, new AtomicInteger())) {
            for (int j = 1; j <= 1000; j++) {
                outputs.accept(0, j, "a", "k" + j, "r" + j);
            }
            outputs.stop();
            outputs.accept(1, 2, "b", "c", "late");
            assertThat(outputs.resultsWritten()).isEqualTo(1000);
        }
        try (var in = new java.util.zip.GZIPInputStream(Files.newInputStream(file))) {
            List<String> lines = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().toList();
            assertThat(lines).hasSize(1001).last().isEqualTo("0\t1000\ta\tk1000\tr1000");
        }
    }

    @Test
    void standardOutput_getsTheTsv_andCannotBeCutBack() throws Exception {
        StringWriter out = new StringWriter();
        try (TsvResultSink<String, String> sink = new TsvResultSink<>(Path.of("-"), out, null, k -> k, r -> r,
                "score", false)) {
            sink.accept(3, 4, "c", "d", "0.5");
            sink.writeOut();
            assertThat(out.toString()).isEqualTo("i\tj\tleft\tright\tscore\n3\t4\tc\td\t0.5\n");
            assertThat(sink.paths()).isEmpty();
            assertThatThrownBy(() -> sink.cut(new long[] {10})).hasMessageContaining("standard output");
        }
    }
}
