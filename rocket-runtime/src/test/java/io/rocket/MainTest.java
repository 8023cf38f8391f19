package io.rocket;

import io.rocket.testapp.FileSimilarity;
import io.rocket.testapp.Misfits;
import io.rocket.testapp.NumberDistance;
import io.rocket.testapp.TextSimilarity;
import io.rocket.testapp.WordSimilarity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The generic main class: keys from arguments, key files and directories, application options, errors. */
class MainTest {

    static {
        System.setProperty("java.net.preferIPv4Stack", "true");
    }

    private static final String WORDS = WordSimilarity.class.getName();
    private static final List<String> FEW_THREADS = List.of("--host-threads", "1", "--concurrent-jobs", "4");

    @TempDir
    Path dir;

    /** What a command line did. */
    record Result(int code, String out, String err) {
        String both() {
            return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
        }

        /** Asserts a refusal: the exit code and exactly one line on stderr, prefixed, without a stack trace. */
        String refused(int expected) {
            assertThat(code).as(both()).isEqualTo(expected);
            List<String> lines = err.lines().toList();
            assertThat(lines).as(both()).hasSize(1);
            assertThat(lines.get(0)).as(both()).startsWith("rocket: ");
            return lines.get(0);
        }
    }

    static Result run(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    static Result run(String... args) {
        return run(List.of(args));
    }

    private static List<String> args(String app, Object... rest) {
        List<String> all = new ArrayList<>();
        all.add(app);
        all.addAll(FEW_THREADS);
        for (Object o : rest) {
            all.add(String.valueOf(o));
        }
        return all;
    }

    /** One row of the pair TSV. */
    record Row(int i, int j, String left, String right, String result) {
    }

    /** The rows of a pair TSV by pair, checking its header and that no pair is there twice. */
    static Map<List<Integer>, Row> readTsv(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).isNotEmpty();
        assertThat(lines.get(0)).isEqualTo("i\tj\tleft\tright\tresult");
        Map<List<Integer>, Row> rows = new HashMap<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t", -1);
            assertThat(f).as(line).hasSize(5);
            Row row = new Row(Integer.parseInt(f[0]), Integer.parseInt(f[1]), f[2], f[3], f[4]);
            assertThat(row.i()).as(line).isLessThan(row.j());
            assertThat(rows.put(List.of(row.i(), row.j()), row)).as("pair %s twice", line).isNull();
        }
        return rows;
    }

    /** Checks that the TSV holds every pair of {@code labels} once, each with the similarity of its texts. */
    static void checkSimilarities(Path tsv, List<String> labels, List<String> texts, int q) throws IOException {
        Map<List<Integer>, Row> rows = readTsv(tsv);
        int n = labels.size();
        assertThat(rows).hasSize(n * (n - 1) / 2);
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                Row row = rows.get(List.of(i, j));
                assertThat(row).as("pair %d %d", i, j).isNotNull();
                assertThat(row.left()).isEqualTo(labels.get(i));
                assertThat(row.right()).isEqualTo(labels.get(j));
                assertThat(row.result()).as("pair %d %d", i, j)
                        .isEqualTo(String.valueOf(TextSimilarity.similarity(texts.get(i), texts.get(j), q)));
            }
        }
    }

    @Test
    void keysFromArgumentsOnOneNode() throws IOException {
        Path tsv = dir.resolve("pairs.tsv");
        List<String> words = List.of("apple", "apply", "ample", "maple", "pineapple");
        List<String> a = args(WORDS, "--output", tsv);
        a.addAll(words);
        Result r = run(a);
        assertThat(r.code()).as(r.both()).isEqualTo(0);
        assertThat(r.out()).contains("pairs");
        checkSimilarities(tsv, words, words, 2);
    }

    @Test
    void keysFromAKeyFileMixedWithArguments() throws IOException {
        Path keys = dir.resolve("keys.txt");
        // CRLF line ends, blank lines and a last line without an end
        Files.writeString(keys, "night\r\nnight owl\r\n\r\n   \nknight\n\nnightly", StandardCharsets.UTF_8);
        Path tsv = dir.resolve("pairs.tsv");
        Result r = run(args(WORDS, "first", "@" + keys, "--output", tsv, "@@last"));
        assertThat(r.code()).as(r.both()).isEqualTo(0);
        List<String> expected = List.of("first", "night", "night owl", "knight", "nightly", "@last");
        checkSimilarities(tsv, expected, expected, 2);
    }

    @Test
    void keysFromADirectoryArePathsOfItsVisibleFilesSortedByName() throws IOException {
        Path photos = Files.createDirectories(dir.resolve("texts"));
        Map<String, String> files = Map.of("b.txt", "the quick brown fox", "a.txt", "the quick brown dog",
                "c.txt", "lazy dogs sleep", "10.txt", "a quick fox");
        for (var e : files.entrySet()) {
            Files.writeString(photos.resolve(e.getKey()), e.getValue());
        }
        Files.writeString(photos.resolve(".hidden"), "never a key");
        Files.createDirectories(photos.resolve("sub"));
        Files.writeString(photos.resolve("sub").resolve("d.txt"), "never a key either");
        Path tsv = dir.resolve("pairs.tsv");
        Result r = run(args(FileSimilarity.class.getName(), photos, "--output", tsv, "--q", "3"));
        assertThat(r.code()).as(r.both()).isEqualTo(0);
        List<String> names = List.of("10.txt", "a.txt", "b.txt", "c.txt");
        checkSimilarities(tsv, names, names.stream().map(files::get).toList(), 3);
    }

    @Test
    void aKeyParserMakesTheKeys() throws IOException {
        Path tsv = dir.resolve("pairs.tsv");
        Result r = run(args(NumberDistance.class.getName(), "3", "10", "-4", "--output", tsv));
        assertThat(r.code()).as(r.both()).isEqualTo(0);
        Map<List<Integer>, Row> rows = readTsv(tsv);
        assertThat(rows.values()).extracting(Row::result).containsExactlyInAnyOrder("7", "7", "14");
        assertThat(rows.get(List.of(1, 2)).result()).isEqualTo("14");

        Result bad = run(args(NumberDistance.class.getName(), "3", "ten"));
        assertThat(bad.refused(2)).isEqualTo("rocket: bad key 'ten': not an integer");
    }

    @Test
    void anApplicationOptionChangesTheResults() throws IOException {
        List<String> words = List.of("banana", "bandana", "cabana");
        for (int q : new int[] {1, 3}) {
            Path tsv = dir.resolve("q" + q + ".tsv");
            List<String> a = args(WORDS, "--q", q, "--output", tsv);
            a.addAll(words);
            Result r = run(a);
            assertThat(r.code()).as(r.both()).isEqualTo(0);
            checkSimilarities(tsv, words, words, q);
        }
        assertThat(TextSimilarity.similarity("banana", "bandana", 1))
                .isNotEqualTo(TextSimilarity.similarity("banana", "bandana", 3));
    }

    /** The identity itself (jobOptions, fingerprint): ApplicationCommandTest. */
    @Test
    void anApplicationOptionIsPartOfTheJobIdentity() {
        // A journal kept with --q 2 is not resumed with --q 3.
        Path journal = dir.resolve("journal");
        Result first = run(args(WORDS, "--q", "2", "--journal", journal, "one", "two", "three"));
        assertThat(first.code()).as(first.both()).isEqualTo(0);
        Result other = run(args(WORDS, "--q", "3", "--journal", journal, "--resume", "one", "two", "three"));
        assertThat(other.refused(1)).contains("--q=2").contains("--q=3");
        Result same = run(args(WORDS, "--q", "2", "--journal", journal, "--resume", "one", "two", "three"));
        assertThat(same.code()).as(same.both()).isEqualTo(0);
    }

    @Test
    void helpListsTheApplicationOptionsAndTheRuntimeOptions() {
        Result r = run(WORDS, "--help");
        assertThat(r.code()).as(r.both()).isEqualTo(0);
        assertThat(r.out()).contains("io.rocket.Main").contains(WORDS + " [OPTIONS] KEY...").contains("--q=Q").contains("q-gram length")
                .contains("--device").contains("--output").contains("--nodes").contains("@FILE");

        Result contract = run("--help");
        assertThat(contract.code()).isEqualTo(0);
        assertThat(contract.out()).contains("APP_CLASS").contains("KeyParser").contains("@FILE")
                .contains("no-argument constructor");
    }

    @Test
    void commandLineErrorsAreOneLine() throws IOException {
        assertThat(run().refused(2)).startsWith("rocket: missing APP_CLASS");
        assertThat(run("--output", "x.tsv", WORDS, "a", "b").refused(2)).contains("comes first");
        assertThat(run("com.example.Nowhere", "a", "b").refused(2))
                .contains("com.example.Nowhere").contains("not found").contains("-cp");
        assertThat(run("target/classes/Foo.class", "a", "b").refused(2)).contains("class name");
        assertThat(run(Misfits.NotAnApplication.class.getName(), "a", "b").refused(2))
                .contains("not a Rocket application");
        assertThat(run(Misfits.NeedsArguments.class.getName(), "a", "b").refused(2))
                .contains("no public no-argument constructor");
        assertThat(run(Misfits.BrokenConstructor.class.getName(), "a", "b").refused(1))
                .contains("no licence for the similarity engine");
        assertThat(run(Misfits.UuidKeys.class.getName(), "a", "b").refused(2))
                .contains("java.util.UUID").contains("KeyParser");
        assertThat(run(Misfits.ClashingOption.class.getName(), "a", "b").refused(2))
                .contains("clash").contains("--device");
        assertThat(run(Misfits.PositionalParameters.class.getName(), "a", "b").refused(2))
                .contains("@Parameters").contains("@Option");
        assertThat(run(WORDS).refused(2)).startsWith("rocket: no keys");
        assertThat(run(WORDS, "lonely").refused(2)).contains("only one key").contains("@FILE");
        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertThat(run(WORDS, empty.toString()).refused(2)).startsWith("rocket: no keys");
        Path missing = dir.resolve("missing-keys.txt");
        assertThat(run(WORDS, "@" + missing).refused(2)).contains(missing.toString()).contains("not found");
        assertThat(run(WORDS, "--no-such-option", "a", "b").refused(2)).contains("--no-such-option");
        assertThat(run(WORDS, "--q", "many", "a", "b").refused(2)).contains("--q");
    }

    @Test
    void aClusterRunNeedsAResultCodec() throws IOException {
        String line = run(args(NumberDistance.class.getName(), "--nodes", "2", "--rank", "0", "--hosts",
                "127.0.0.1:" + freePort() + ",127.0.0.1:" + freePort(), "1", "2")).refused(1);
        assertThat(line).contains(NumberDistance.class.getName()).contains("resultCodec()")
                .contains("several nodes");
    }

    @Test
    @Timeout(120)
    void aClusterOfTwoWritesEveryPairOnceOnRankZero() throws Exception {
        Path keys = dir.resolve("keys.txt");
        List<String> words = new ArrayList<>();
        for (int k = 0; k < 24; k++) {
            words.add("word" + Integer.toString(k * 7919, 36) + (k % 3 == 0 ? "ing" : "ed"));
        }
        Files.write(keys, words);
        Path tsv = dir.resolve("pairs.tsv");
        Path summary = dir.resolve("summary.json");
        List<Result> results = cluster(rank -> args(WORDS, "--q", "2", "--output", tsv, "--summary-json", summary,
                "--tile-size", "4", "--join-timeout", "30", "--verbose", "@" + keys));
        for (Result r : results) {
            assertThat(r.code()).as(r.both()).isEqualTo(0);
        }
        assertThat(results.get(0).out()).startsWith("rank 0: ").contains("24 items, 276 pairs (0 errors)")
                .contains("cluster:");
        assertThat(results.get(1).out()).startsWith("rank 1: ");
        checkSimilarities(tsv, words, words, 2);
        assertThat(Files.readString(summary)).contains("\"app\"");
    }

    @Test
    @Timeout(120)
    void nodesGivenDifferentApplicationOptionsRefuseToRunTogether() throws Exception {
        List<Result> results = cluster(rank -> args(WORDS, "--q", rank == 0 ? "2" : "3", "--join-timeout", "30",
                "alpha", "beta", "gamma", "delta"));
        for (Result r : results) {
            assertThat(r.refused(1)).as(r.both()).contains("different item list or options than rank 0");
        }
    }

    /** Runs two ranks of a command line as threads of this JVM over TCP on 127.0.0.1. */
    private static List<Result> cluster(java.util.function.IntFunction<List<String>> argsFor) throws Exception {
        String hosts = "127.0.0.1:" + freePort() + ",127.0.0.1:" + freePort();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Result>> ranks = new ArrayList<>();
            for (int rank = 0; rank < 2; rank++) {
                List<String> a = new ArrayList<>(argsFor.apply(rank));
                a.addAll(List.of("--nodes", "2", "--rank", String.valueOf(rank), "--hosts", hosts));
                ranks.add(pool.submit(() -> run(a)));
            }
            List<Result> results = new ArrayList<>();
            for (Future<Result> f : ranks) {
                results.add(f.get(100, TimeUnit.SECONDS));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
