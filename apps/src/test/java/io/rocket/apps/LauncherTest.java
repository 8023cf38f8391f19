package io.rocket.apps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocket.core.summary.PerformanceModel;
import io.rocket.testkit.SyntheticApp;
import io.rocket.cli.Version;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line as a user meets it: outputs, summary, trace, and one-line errors for bad input. */
class LauncherTest {

    @TempDir
    Path dir;

    private record Result(int code, String out, String err) {
    }

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Launcher.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void synthetic_writesTsvSummaryAndTrace() throws Exception {
        Path tsv = dir.resolve("pairs.tsv");
        Path json = dir.resolve("summary.json");
        Path trace = dir.resolve("trace.json.gz");
        Result r = run("synthetic", "--items", "40", "--item-bytes", "128", "--seed", "9", "--load-ms", "0.1",
                "--preprocess-ms", "0.05", "--compare-ms", "0.01±0.005", "--host-cache-size", "10slots",
                "--device-cache-size", "4slots", "--output", tsv.toString(), "--summary-json", json.toString(),
                "--trace", trace.toString(), "--verify");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("synthetic: 40 items, 780 pairs").contains("verified");

        List<String> lines = Files.readAllLines(tsv);
        assertThat(lines.get(0)).isEqualTo("i\tj\tleft\tright\tresult");
        assertThat(lines).hasSize(781);
        Set<String> pairs = new HashSet<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t");
            int i = Integer.parseInt(f[0]);
            int j = Integer.parseInt(f[1]);
            assertThat(i).isLessThan(j);
            assertThat(pairs.add(i + "," + j)).isTrue();
            assertThat(f[4]).isEqualTo(SyntheticApp.hex(SyntheticApp.expected(9, i, j))).hasSize(16);
        }

        JsonNode s = new ObjectMapper().readTree(json.toFile());
        for (String field : List.of("items", "pairs", "errors", "wall_seconds", "pairs_per_second", "loads", "R",
                "t_min_seconds", "system_efficiency")) {
            assertThat(s.has(field)).as(field).isTrue();
        }
        assertThat(s.get("pairs").asLong()).isEqualTo(780);
        for (String level : List.of("device", "host")) {
            JsonNode c = s.get("cache").get(level);
            assertThat(c.has("hits") && c.has("misses") && c.has("evictions")).isTrue();
        }
        assertThat(s.get("cache").get("host").get("slots").asInt()).isEqualTo(10);
        assertThat(s.get("t_min_seconds").asDouble()).isPositive();

        JsonNode events;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(trace))) {
            events = new ObjectMapper().readTree(in).get("traceEvents");
        }
        Set<String> names = new HashSet<>();
        Set<String> phases = new HashSet<>();
        events.forEach(e -> {
            names.add(e.get("name").asText());
            phases.add(e.get("ph").asText());
        });
        // The cpu device reads the host cache in place: no item crosses to or from a device (no h2d, no d2h item).
        assertThat(names).contains("parse", "preprocess", "compare", "d2h result", "postprocess",
                "L1 device cache", "L2 host cache", "thread_name", "process_name")
                .doesNotContain("h2d", "d2h item");
        assertThat(phases).containsExactlyInAnyOrder("M", "X", "C");
    }

    @Test
    void bothOrders_verifyEveryPair_onTwoDevices_andTheBlockedOrderLoadsLess() throws Exception {
        long[] loads = new long[2];
        String[] orders = {"blocked", "quadtree"};
        for (int k = 0; k < 2; k++) {
            Path json = dir.resolve(orders[k] + ".json");
            Result r = run("synthetic", "--items", "120", "--item-bytes", "64", "--seed", "3", "--device", "cpu:2",
                    "--host-cache-size", "24slots", "--device-cache-size", "12slots", "--order", orders[k],
                    "--summary-json", json.toString(), "--verify", "--no-progress");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).contains("7140 pairs (0 errors)").contains("verified");
            JsonNode summary = new ObjectMapper().readTree(json.toFile());
            loads[k] = summary.get("loads").asLong();
            // 7140 pairs of 120 items held in 24 L2 slots, which the cpu devices read in place (no L1 slots).
            assertThat(summary.get("R_lower_bound").asDouble())
                    .isEqualTo(PerformanceModel.reuseLowerBound(120, 7140, 24));
            assertThat(summary.get("R").asDouble()).isGreaterThanOrEqualTo(summary.get("R_lower_bound").asDouble());
        }
        assertThat(loads[0]).as("loads blocked vs quadtree").isLessThan(loads[1]);
    }

    @Test
    void unknownOrder_oneLineAndExit2() {
        Result r = run("synthetic", "--items", "5", "--order", "diagonal");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("unknown schedule order 'diagonal' (blocked or quadtree)").doesNotContain("\tat ");
    }

    @Test
    void unknownOption_oneLineAndExit2() {
        Result r = run("synthetic", "--items", "5", "--frobnicate");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith("rocket: Unknown option: '--frobnicate'").doesNotContain("Exception");
    }

    @Test
    void negativeSize_namesTheValue() {
        Result r = run("synthetic", "--items", "5", "--host-cache-size=-3M");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("-3M").doesNotContain("\tat ");
    }

    @Test
    void cacheSmallerThanTwoItems_oneLineError() {
        Result r = run("synthetic", "--items", "5", "--item-bytes", "1048576", "--device-cache-size", "1M");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().strip()).isEqualTo("rocket: error: device cache (--device-cache-size) of 1048576B holds 1 "
                + "slot(s) of 1048576 bytes (one item each); at least 2 are needed");
    }

    @Test
    void badCostAndCounts_oneLineErrors() {
        assertThat(run("synthetic", "--items", "5", "--compare-ms", "fast").err()).contains("bad cost 'fast'");
        assertThat(run("synthetic", "--items", "5", "--concurrent-jobs", "0").err())
                .contains("--concurrent-jobs must be at least 1");
        assertThat(run("synthetic", "--items", "-4").err()).contains("--items must be at least 0");
        assertThat(run("synthetic", "--items", "5", "--device", "tpu").code()).isEqualTo(2);
    }

    @Test
    void badStartWindow_oneLineError_beforeJoining() {
        for (String bad : new String[]{"wide", "0", "-5"}) {
            Result r = run("synthetic", "--items", "5", "--nodes", "2", "--rank", "0", "--hosts",
                    "127.0.0.1:1,127.0.0.1:2", "--start-window", bad);
            assertThat(r.code()).as(r.err()).isEqualTo(2);
            assertThat(r.err().strip()).isEqualTo("rocket: --start-window must be a number of items (at least "
                    + "1), auto or all, got '" + bad + "' (see: rocket synthetic --help)");
        }
    }

    @Test
    void cudaWithoutBackend_oneLineError() {
        Result r = run("synthetic", "--items", "5", "--device", "cuda");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err().strip().lines().count()).isEqualTo(1);
        assertThat(r.err()).contains("cuda").contains("unavailable");
    }

    @Test
    void anApplicationClass_runsThroughTheLauncher_asThroughIoRocketMain() throws Exception {
        String app = LengthDifference.class.getName();
        Path tsv = dir.resolve("lengths.tsv");
        Result r = run(app, "--scale", "10", "--host-threads", "1", "--output", tsv.toString(), "a", "bbb", "cc");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Files.readAllLines(tsv)).containsExactlyInAnyOrder("i\tj\tleft\tright\tresult",
                "0\t1\ta\tbbb\t20", "0\t2\ta\tcc\t10", "1\t2\tbbb\tcc\t10");

        Result help = run(app, "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains(app + " [OPTIONS] KEY...").contains("--scale").contains("--device");
        Result oneKey = run(app, "lonely");
        assertThat(oneKey.code()).isEqualTo(2);
        assertThat(oneKey.err().strip()).startsWith("rocket: only one key (lonely)");
        Result missing = run("com.example.Nowhere", "a", "b");
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err().strip()).startsWith("rocket: class com.example.Nowhere not found on the class path");
        assertThat(run("Foo.class").err().strip()).contains("looks like a file name");
        Result cluster = run(app, "--nodes", "2", "--rank", "0", "--hosts", "127.0.0.1:1,127.0.0.1:2", "a", "b");
        assertThat(cluster.code()).isEqualTo(1);
        assertThat(cluster.err().strip()).isEqualTo("rocket: error: " + app + " must implement resultCodec() to run "
                + "on several nodes (its results travel to rank 0)");
    }

    @Test
    void unknownCommand_oneLineWithSuggestions() {
        Result r = run("synthtic", "--items", "5");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().lines().toList()).hasSize(1).first().asString()
                .startsWith("rocket: Unmatched arguments from index 0: 'synthtic'").contains("synthetic")
                .endsWith("(see: rocket --help)");
        Result none = run();
        assertThat(none.code()).isEqualTo(2);
        assertThat(none.err().strip()).startsWith("rocket: missing command or application class");
        Result nested = run("generate", "forensics", "--bogus");
        assertThat(nested.err().strip()).endsWith("(see: rocket generate forensics --help)");
    }

    @Test
    void everyCommandPrintsTheOneVersion() {
        for (String[] args : new String[][] {{"--version"}, {"synthetic", "--version"}, {"generate", "forensics", "-V"},
                {LengthDifference.class.getName(), "--version"}}) {
            Result r = run(args);
            assertThat(r.code()).isZero();
            assertThat(r.out().strip()).as(String.join(" ", args)).isEqualTo(Version.line());
        }
    }

    @Test
    void copyBandwidth_isAHiddenCommand() {
        Result r = run("copy-bandwidth", "--device", "cpu", "--bytes", "64K", "--repeats", "2");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("cpu:0: 0 MiB per copy, 2 copies: host-to-device");
        assertThat(run("--help").out()).doesNotContain("copy-bandwidth").contains("rocket APP_CLASS");
        Result bad = run("copy-bandwidth", "--device", "cpu", "--bytes", "lots");
        assertThat(bad.code()).isNotZero();
        assertThat(bad.err().strip().lines()).hasSize(1).first().asString().startsWith("rocket: ");
    }

    @Test
    void help_listsOptions() {
        Result r = run("synthetic", "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("--items", "--compare-ms", "--host-cache-size", "--trace", "--tile-size");
    }
}
