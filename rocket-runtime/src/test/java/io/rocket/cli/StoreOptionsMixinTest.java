package io.rocket.cli;

import io.rocket.Main;
import io.rocket.testapp.NumberDistance;
import io.rocket.testapp.WordSimilarity;
import io.rocket.results.journal.JournalOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code --store}: the store's job identity leaves out {@link ResultNeutral} options, outputs and runtime options;
 * the generic main class keeps and reuses a store, and refuses one it cannot keep before touching its outputs.
 */
class StoreOptionsMixinTest {
    @TempDir
    Path dir;

    @Command(name = "scaled")
    static final class Scaled {
        @Option(names = "--scale")
        int scale = 1;

        @ResultNeutral
        @Option(names = "--cut")
        double cut = 0.5;

        @Option(names = "--clusters", paramLabel = "FILE")
        Path clusters;

        @Mixin
        RuntimeOptionsMixin runtime;
    }

    private static JournalOptions parse(String... args) {
        Scaled command = new Scaled();
        new CommandLine(command).parseArgs(args);
        return command.runtime.journalOptions();
    }

    @Test
    void theStoresIdentity_keepsTheOptionsThatChangeResults_only() {
        JournalOptions store = parse("--store", "s", "--scale", "3", "--cut", "0.9", "--clusters", "c.tsv",
                "--device", "cpu:2");
        assertThat(store.store()).isTrue();
        assertThat(store.dir()).isEqualTo(Path.of("s"));
        assertThat(store.options()).isEqualTo("scaled\n--scale=3");
        assertThat(parse("--store", "s", "--scale", "3", "--cut", "0.1").options()).isEqualTo(store.options());
        // A store made while --cut was part of the identity is read without it.
        assertThat(store.neutralOptions()).containsExactly("--cut");
        assertThat(parse("--journal", "j").options()).contains("--cut=0.5");
        assertThat(parse("--journal", "j").store()).isFalse();
        assertThat(parse()).isNull();
        assertThat(store.compact()).isFalse();
        assertThat(parse("--store", "s", "--compact-store").compact()).isTrue();
        assertThat(parse("--store", "s", "--compact-store").neutralOptions()).containsExactly("--cut");
        assertThatThrownBy(() -> parse("--journal", "j", "--compact-store"))
                .hasMessage("--compact-store: give it with --store DIR");
        // --store-repair is how a run opens the store, not part of the job.
        JournalOptions repair = parse("--store", "s", "--scale", "3", "--store-repair");
        assertThat(repair.repair()).isTrue();
        assertThat(store.repair()).isFalse();
        assertThat(repair.options()).isEqualTo(store.options());
        assertThatThrownBy(() -> parse("--store-repair"))
                .hasMessage("--store-repair: give it with --store DIR");
    }

    private record Result(int code, String out, String err) {
    }

    private static Result main(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    private List<String> text(Path store, Path output, String q, String... keys) {
        List<String> args = new ArrayList<>(List.of(WordSimilarity.class.getName(), "--q", q, "--host-threads", "1",
                "--no-progress", "--store", store.toString(), "--output", output.toString()));
        args.addAll(List.of(keys));
        return args;
    }

    @Test
    void genericMain_grownKeys_computeOnlyTheirPairs_andAnotherJobIsRefused() throws Exception {
        Path store = dir.resolve("store");
        Path out = dir.resolve("pairs.tsv");
        assertThat(main(text(store, out, "2", "banana", "bandana", "cabana")).code()).isZero();
        Result grown = main(text(store, out, "2", "banana", "bandana", "cabana", "savanna"));
        assertThat(grown.code()).as(grown.err()).isZero();
        assertThat(grown.out()).contains("reused 3 pairs from the store, computed 3");
        Path scratch = dir.resolve("scratch.tsv");
        assertThat(main(List.of(WordSimilarity.class.getName(), "--q", "2", "--host-threads", "1", "--no-progress",
                "--output", scratch.toString(), "banana", "bandana", "cabana", "savanna")).code()).isZero();
        assertThat(sorted(out)).isEqualTo(sorted(scratch));

        Result other = main(text(store, out, "3", "banana", "bandana"));
        assertThat(other.code()).isNotZero();
        assertThat(other.err().strip()).isEqualTo("rocket: error: --store: " + store + " holds the results of "
                + "another job (its options differ: --q=2 in the store, --q=3 now)");
        assertThat(sorted(out)).as("a refused run leaves the output alone").isEqualTo(sorted(scratch));
    }

    @Test
    void genericMain_compactStore_keepsThePairsOfTheRunsItems_only() throws Exception {
        Path store = dir.resolve("store");
        Path out = dir.resolve("pairs.tsv");
        assertThat(main(text(store, out, "2", "banana", "bandana", "cabana", "savanna", "havana")).code()).isZero();
        Path records = store.resolve("records.bin");
        long full = Files.size(records);
        List<String> args = new ArrayList<>(text(store, out, "2", "banana", "bandana", "cabana"));
        args.add("--compact-store");
        Result compacted = main(args);
        assertThat(compacted.code()).as(compacted.err()).isZero();
        assertThat(compacted.out()).contains("reused 3 pairs from the store, computed 0");
        assertThat(Files.size(records)).isLessThan(full); // 7 of the 10 pairs were of savanna or havana
        List<String> kept = sorted(out);
        Result again = main(text(store, out, "2", "banana", "bandana", "cabana"));
        assertThat(again.out()).contains("reused 3 pairs from the store, computed 0");
        assertThat(sorted(out)).isEqualTo(kept);
        Result dropped = main(text(store, out, "2", "banana", "savanna"));
        assertThat(dropped.out()).contains("2 items, 1 pairs").doesNotContain("reused"); // (banana, savanna) is gone
    }

    @Test
    void genericMain_anApplicationWithoutResultCodec_isRefusedBeforeItsOutputIsTouched() throws Exception {
        Path out = Files.writeString(dir.resolve("pairs.tsv"), "kept\n");
        Result r = main(List.of(NumberDistance.class.getName(), "--store", dir.resolve("store").toString(),
                "--output", out.toString(), "1", "2", "3"));
        assertThat(r.code()).isNotZero();
        assertThat(r.err().strip()).isEqualTo("rocket: error: NumberDistance cannot keep a result store: it defines "
                + "no result codec");
        assertThat(Files.readString(out)).isEqualTo("kept\n");
    }

    private static List<String> sorted(Path file) throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.sort(null);
        return lines;
    }
}
