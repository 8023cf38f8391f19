package io.rocket.cli;

import io.rocket.testapp.WordSimilarity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --against} and {@code --pairs} on the generic main: the pairs they choose, and their bad input. */
class PairSpaceCommandTest {
    private static final String WORDS = WordSimilarity.class.getName();
    private static final List<String> ALL = List.of("alpha", "alpine", "beta", "better", "gamma", "gammon", "delta",
            "deltoid", "epsilon", "upsilon");

    @TempDir
    Path dir;

    private ApplicationCommandTest.Result run(String... args) {
        return ApplicationCommandTest.run(Invocation.MAIN, args);
    }

    private Path lines(String name, List<String> lines) throws IOException {
        return Files.write(dir.resolve(name), lines);
    }

    /** The results of a TSV output keyed by the pair's labels ("left right", the smaller label first). */
    private static Map<String, String> results(Path tsv) throws IOException {
        Map<String, String> out = new HashMap<>();
        for (String line : Files.readAllLines(tsv).subList(1, Files.readAllLines(tsv).size())) {
            String[] f = line.split("\t");
            String a = f[2].compareTo(f[3]) < 0 ? f[2] : f[3];
            String b = f[2].compareTo(f[3]) < 0 ? f[3] : f[2];
            assertThat(out.put(a + " " + b, f[4])).as("pair %s %s twice", a, b).isNull();
        }
        return out;
    }

    @Test
    void queriesAgainstReferences_equalTheMatchingBlockOfTheFullRun() throws IOException {
        Path all = lines("all.txt", ALL);
        List<String> queries = List.of("alpha", "beta", "gamma", "delta");
        List<String> references = List.of("gamma", "delta", "deltoid", "epsilon", "upsilon");
        Path full = dir.resolve("full.tsv");
        Path block = dir.resolve("block.tsv");
        assertThat(run(WORDS, "@" + all, "--output", full.toString()).code()).isZero();
        ApplicationCommandTest.Result r = run(WORDS, "@" + lines("q.txt", queries), "--against",
                lines("r.txt", references).toString(), "--output", block.toString());
        assertThat(r.code()).as(r.err()).isZero();

        Set<String> expected = new TreeSet<>();
        for (String q : queries) {
            for (String ref : references) {
                if (!q.equals(ref)) {
                    expected.add(q.compareTo(ref) < 0 ? q + " " + ref : ref + " " + q);
                }
            }
        }
        Map<String, String> got = results(block);
        assertThat(new TreeSet<>(got.keySet())).isEqualTo(expected);
        Map<String, String> fullResults = results(full);
        got.forEach((pair, value) -> assertThat(value).as(pair).isEqualTo(fullResults.get(pair)));
    }

    @Test
    void aListOfPairs_byIndexOrLabel_computesThoseOnly() throws IOException {
        Path pairs = lines("pairs.txt", List.of("# by index", "0 1", "", "1 0", "beta\tgamma", "  9 2  "));
        Path out = dir.resolve("out.tsv");
        ApplicationCommandTest.Result r = run(WORDS, "@" + lines("all.txt", ALL), "--pairs", pairs.toString(),
                "--output", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(new TreeSet<>(results(out).keySet())).containsExactly("alpha alpine", "beta gamma", "beta upsilon");
    }

    @Test
    void badPairLines_areRefusedNamingTheLine() throws IOException {
        Path all = lines("all.txt", ALL);
        ApplicationCommandTest.Result range = run(WORDS, "@" + all, "--pairs",
                lines("range.txt", List.of("0 1", "3 10")).toString());
        assertThat(range.code()).isNotZero();
        assertThat(range.err().strip().lines().toList()).hasSize(1).first().asString()
                .contains("line 2").contains("item 10 is out of range (10 items");

        ApplicationCommandTest.Result malformed = run(WORDS, "@" + all, "--pairs",
                lines("bad.txt", List.of("# pairs", "0 1 2")).toString());
        assertThat(malformed.err().strip()).contains("line 2").contains("expected two items");

        ApplicationCommandTest.Result unknown = run(WORDS, "@" + all, "--pairs",
                lines("unknown.txt", List.of("alpha omega")).toString());
        assertThat(unknown.err().strip()).contains("line 1").contains("no item is labelled 'omega'");

        ApplicationCommandTest.Result self = run(WORDS, "@" + all, "--pairs",
                lines("self.txt", List.of("beta 2")).toString());
        assertThat(self.err().strip()).contains("line 1").contains("with itself");
    }

    @Test
    void againstNoItems_isRefusedInOneLine() throws IOException {
        Path empty = Files.createDirectory(dir.resolve("empty"));
        ApplicationCommandTest.Result r = run(WORDS, "alpha", "--against", empty.toString());
        assertThat(r.code()).isNotZero();
        assertThat(r.err().strip().lines().toList()).hasSize(1).first().asString().contains("--against")
                .contains("no items");
        Path nowhere = dir.resolve("nowhere");
        ApplicationCommandTest.Result missing = run(WORDS, "alpha", "--against", nowhere.toString());
        assertThat(missing.code()).isEqualTo(ExitCode.USAGE.code());
        assertThat(missing.err().strip()).isEqualTo("rocket: --against " + nowhere
                + ": no such directory or list file");
    }

    @Test
    void oneQuery_againstADirectory_comparesWithEachReference() throws IOException {
        Path refs = Files.createDirectory(dir.resolve("refs"));
        for (String name : List.of("b1", "b2", "b3")) {
            Files.writeString(refs.resolve(name), name);
        }
        Path out = dir.resolve("out.tsv");
        ApplicationCommandTest.Result r = run(WORDS, "alpha", "--against", refs.toString(), "--output",
                out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(results(out)).hasSize(3);
    }
}
