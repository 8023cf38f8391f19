package io.rocket.cli;

import io.rocket.testapp.WordSimilarity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --top-k}, {@code --min-score} and {@code --max-score} on the generic command line. */
class ReductionOptionsTest {
    private static final String WORDS = WordSimilarity.class.getName();
    private static final List<String> KEYS = List.of("rocket", "pocket", "socket", "rock", "lock", "locket", "sock",
            "packet");

    private static ApplicationCommandTest.Result run(String... args) {
        return ApplicationCommandTest.run(Invocation.MAIN, args);
    }

    private static String[] command(Path output, String... options) {
        List<String> args = new java.util.ArrayList<>(List.of(WORDS, "--output", output.toString(),
                "--progress-interval", "0"));
        args.addAll(List.of(options));
        args.addAll(KEYS);
        return args.toArray(String[]::new);
    }

    /** The data lines of a TSV as pair (i j) to similarity. */
    private static Map<String, Double> pairs(Path tsv) throws Exception {
        return Files.readAllLines(tsv).stream().skip(1).map(l -> l.split("\t"))
                .collect(Collectors.toMap(f -> f[0] + " " + f[1], f -> Double.parseDouble(f[4]), (a, b) -> a,
                        TreeMap::new));
    }

    @Test
    void topK_writesTheBestPartnersOfEveryItem_asTheFullResultFiltered(@TempDir Path dir) throws Exception {
        Path all = dir.resolve("all.tsv");
        Path top = dir.resolve("top.tsv");
        assertThat(run(command(all)).code()).isZero();
        ApplicationCommandTest.Result reduced = run(command(top, "--top-k", "2", "--summary-json",
                dir.resolve("s.json").toString()));
        assertThat(reduced.code()).as(reduced.err()).isZero();

        Map<String, Double> full = pairs(all);
        Set<String> expected = new HashSet<>();
        for (int item = 0; item < KEYS.size(); item++) {
            int self = item;
            full.keySet().stream().filter(p -> List.of(p.split(" ")).contains(String.valueOf(self)))
                    .sorted(Comparator.<String, Double>comparing(full::get).reversed()
                            .thenComparing(p -> other(p, self)))
                    .limit(2).forEach(expected::add);
        }
        assertThat(pairs(top).keySet()).isEqualTo(expected);
        assertThat(Files.readString(dir.resolve("s.json"))).contains("\"pairs_kept\" : " + expected.size());
    }

    private static int other(String pair, int self) {
        String[] p = pair.split(" ");
        return Integer.parseInt(p[0]) == self ? Integer.parseInt(p[1]) : Integer.parseInt(p[0]);
    }

    @Test
    void band_keepsThePairsBetweenTheBounds(@TempDir Path dir) throws Exception {
        Path all = dir.resolve("all.tsv");
        Path band = dir.resolve("band.tsv");
        assertThat(run(command(all)).code()).isZero();
        assertThat(run(command(band, "--min-score", "0.2", "--max-score", "0.8")).code()).isZero();
        Map<String, Double> expected = new TreeMap<>(pairs(all));
        expected.values().removeIf(s -> s < 0.2 || s > 0.8);
        assertThat(expected).isNotEmpty();
        assertThat(pairs(band)).isEqualTo(expected);
    }

    @Test
    void topKZero_isRefusedInOneLine(@TempDir Path dir) {
        ApplicationCommandTest.Result bad = run(command(dir.resolve("x.tsv"), "--top-k", "0"));
        assertThat(bad.code()).isNotZero();
        assertThat(bad.err().lines().toList()).hasSize(1).first().asString()
                .contains("--top-k must be at least 1, got 0");
    }

    @Test
    void reductionOptions_areNotPartOfTheJobIdentity_butOfTheClusterFingerprint() {
        var cl = ApplicationCommand.commandLine(ApplicationClass.instantiate(WORDS, Invocation.MAIN), Invocation.MAIN,
                new java.io.PrintWriter(new java.io.StringWriter()), new java.io.PrintWriter(new java.io.StringWriter()));
        cl.parseArgs("--top-k", "3");
        ApplicationCommand.Job job = cl.getCommand();
        assertThat(job.runtime.jobOptions()).isEqualTo(WORDS + "\n--q=2");
        String base = job.runtime.fingerprint(List.of("a", "b"));
        assertThat(job.reduction.fingerprint(base)).isNotEqualTo(base).startsWith(base);
    }
}
