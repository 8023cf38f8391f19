package io.rocket.results.journal;

import io.rocket.core.ItemException;
import io.rocket.core.ItemTooLargeException;
import io.rocket.core.RocketException;
import io.rocket.core.summary.RunSummary;
import org.junit.jupiter.api.Test;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResultStoreTest extends RecordsOfKnownSize {
    ResultStoreTest() {
        super("store");
    }

    /**
     * One run against the store: opens it over {@code keys}, computes every pair it did not take (results of
     * {@link #value}), and returns the sink, which saw the taken pairs as replays and the others as new.
     */
    private LineSink run(JournalTestApp app, List<Integer> keys, String options, RunSummary summary) throws Exception {
        LineSink sink = new LineSink(out);
        ResultStore<Integer, Long> store = ResultStore.open(JournalOptions.store(dir, options), app, keys, sink);
        for (int i = 0; i < keys.size(); i++) {
            for (int j = i + 1; j < keys.size(); j++) {
                if (!store.resumed().contains(i, j)) {
                    store.sink().accept(i, j, keys.get(i), keys.get(j), value(keys.get(i), keys.get(j)));
                }
            }
        }
        store.close();
        store.addTo(summary);
        sink.close();
        return sink;
    }

    private LineSink run(JournalTestApp app, List<Integer> keys) throws Exception {
        return run(app, keys, "--seed=1", new RunSummary());
    }

    /** Every pair of {@code keys} by run index, as a from-scratch run gives it. */
    private static Map<String, Long> all(List<Integer> keys) {
        Map<String, Long> expected = new TreeMap<>();
        for (int i = 0; i < keys.size(); i++) {
            for (int j = i + 1; j < keys.size(); j++) {
                expected.put(i + " " + j, value(keys.get(i), keys.get(j)));
            }
        }
        return expected;
    }

    private static Map<String, Long> both(LineSink sink) {
        Map<String, Long> seen = new TreeMap<>(sink.replayed);
        sink.accepted.forEach((k, v) -> assertThat(seen.put(k, v)).as("pair %s twice", k).isNull());
        return seen;
    }

    @Test
    void grownCollection_computesOnlyTheNewPairs_andGivesTheWholeResult() throws Exception {
        JournalTestApp app = new JournalTestApp(0);
        LineSink first = run(app, range(8));
        assertThat(first.accepted).hasSize(28);
        assertThat(first.replayed).isEmpty();

        // Two new items, one sorting before the old ones: indices move, the old pairs keep their order.
        List<Integer> grown = List.of(-1, 0, 1, 2, 3, 4, 5, 6, 7, 8);
        RunSummary summary = new RunSummary();
        LineSink second = run(app, grown, "--seed=1", summary);
        assertThat(second.accepted).hasSize(45 - 28);
        assertThat(second.accepted.keySet()).allMatch(pair -> pair.startsWith("0 ") || pair.endsWith(" 9"));
        assertThat(both(second)).isEqualTo(all(grown));
        assertThat(summary.pairsReused).isEqualTo(28);

        LineSink third = run(app, grown);
        assertThat(third.accepted).isEmpty();
        assertThat(third.replayed).isEqualTo(all(grown));
    }

    @Test
    void itemsInTheOtherOrder_areComputedAgain_forTheFunctionNeedNotBeSymmetric() throws Exception {
        JournalTestApp app = new JournalTestApp(0);
        run(app, List.of(1, 2, 3));
        LineSink reordered = run(app, List.of(3, 1, 2));
        assertThat(reordered.replayed).containsOnlyKeys("1 2"); // (1, 2) in the same order, at indices 1 and 2
        assertThat(both(reordered)).isEqualTo(all(List.of(3, 1, 2)));
    }

    @Test
    void aChangedInput_recomputesExactlyItsPairs() throws Exception {
        List<Path> files = new ArrayList<>();
        for (int k = 0; k < 6; k++) {
            files.add(Files.writeString(tmp.resolve("item" + k + ".txt"), "item " + k));
        }
        JournalTestApp app = new JournalTestApp(6, files, true);
        run(app, range(6));
        Files.writeString(files.get(3), "item 3, changed");
        LineSink again = run(app, range(6));
        assertThat(again.accepted).containsOnlyKeys("0 3", "1 3", "2 3", "3 4", "3 5");
        assertThat(again.replayed).hasSize(15 - 5);

        // Same size, another time: changed too.
        Files.setLastModifiedTime(files.get(0), FileTime.fromMillis(Files.getLastModifiedTime(files.get(0))
                .toMillis() - 60_000));
        assertThat(run(app, range(6)).accepted).containsOnlyKeys("0 1", "0 2", "0 3", "0 4", "0 5");
        // A moved collection is the same collection.
        Path moved = Files.createDirectories(tmp.resolve("moved"));
        List<Path> movedFiles = new ArrayList<>();
        for (Path file : files) {
            movedFiles.add(Files.move(file, moved.resolve(file.getFileName())));
        }
        assertThat(run(new JournalTestApp(6, movedFiles, true), range(6)).accepted).isEmpty();
    }

    @Test
    void aStoreOfAnotherJob_isRefusedInOneLine_andAJournalIsNotAStore() throws Exception {
        JournalTestApp app = new JournalTestApp(0);
        run(app, range(4), "--seed=1", new RunSummary());
        assertThatThrownBy(() -> run(app, range(4), "--seed=2", new RunSummary()))
                .isInstanceOf(RocketException.class)
                .hasMessage("--store: " + dir + " holds the results of another job (its options differ: --seed=1 in "
                        + "the store, --seed=2 now)");
        Path journal = tmp.resolve("journal");
        RunJournal.open(new JournalOptions(journal, false, ""), app, range(4), new LineSink(out)).close();
        assertThatThrownBy(() -> ResultLog.check(JournalOptions.store(journal, ""), app))
                .hasMessageStartingWith("--store: " + journal + " holds a run journal, not a result store");
        assertThatThrownBy(() -> ResultLog.check(new JournalOptions(dir, true, ""), app))
                .hasMessage(dir + " holds a result store, not a journal; give it as --store " + dir);
        assertThatThrownBy(() -> ResultStore.open(JournalOptions.store(tmp.resolve("other"), ""),
                new JournalTestApp(0, List.of(), false), range(4), new LineSink(out)))
                .hasMessageContaining("cannot keep a result store: it defines no result codec");
    }

    @Test
    void aTornLastRecord_isCut_andItsPairsAreComputedAgain() throws Exception {
        JournalTestApp app = new JournalTestApp(0);
        run(app, range(8)); // 28 pairs: records of 10, 10 and 8
        Path records = dir.resolve(JournalStore.RECORDS);
        try (RandomAccessFile f = new RandomAccessFile(records.toFile(), "rw")) {
            f.setLength(f.length() - 5);
        }
        LineSink again = run(app, range(8));
        assertThat(again.replayed).hasSize(20);
        assertThat(again.accepted).hasSize(8);
        assertThat(both(again)).isEqualTo(all(range(8)));
    }

    @Test
    void failedPairs_andFailedItems_areKeptLikeResults() throws Exception {
        JournalTestApp app = new JournalTestApp(0);
        LineSink sink = new LineSink(out);
        List<Integer> keys = List.of(10, 11, 12);
        ResultStore<Integer, Long> store = ResultStore.open(JournalOptions.store(dir, ""), app, keys, sink);
        store.sink().accept(0, 1, 10, 11, 7L);
        store.sink().failed(0, 2, 10, 12, new ItemException(2, "item 2 (12): broken", null));
        store.sink().failed(1, 2, 11, 12, new ItemException(2, "item 2 (12): broken", null));
        store.close();
        sink.close();

        // Item 12 now comes first: its failure is named by its new index.
        LineSink again = new LineSink(out);
        ResultStore<Integer, Long> reopened = ResultStore.open(JournalOptions.store(dir, ""), app,
                List.of(12, 10, 11), again);
        assertThat(reopened.resumed().size()).isEqualTo(1);
        assertThat(again.replayed).containsOnlyKeys("1 2");
        reopened.close();
        ResultStore<Integer, Long> same = ResultStore.open(JournalOptions.store(dir, ""), app, keys, new LineSink(out));
        RunSummary summary = new RunSummary();
        same.addTo(summary);
        same.close();
        assertThat(summary.pairsReused).isEqualTo(3);
        assertThat(summary.errors).isEqualTo(2);
        assertThat(summary.pairs).isEqualTo(1);
        assertThat(summary.failures).containsExactly(new RunSummary.Failure(2, "12", "item 2 (12): broken"));
    }

    @Test
    void pairsThatFailedForABufferTooSmall_areNotKept_andALaterRunComputesThem() throws Exception {
        JournalTestApp app = new JournalTestApp(0);
        List<Integer> keys = List.of(10, 11, 12);
        ResultStore<Integer, Long> store = ResultStore.open(JournalOptions.store(dir, ""), app, keys,
                new LineSink(out));
        store.sink().accept(0, 1, 10, 11, 7L);
        ItemTooLargeException tooLarge = new ItemTooLargeException("12.faa: needs 900 bytes, the slot holds 800",
                null);
        store.sink().failed(0, 2, 10, 12, new ItemException(2, "item 2 (12): " + tooLarge.getMessage(), tooLarge));
        store.sink().failed(1, 2, 11, 12, new ItemException(2, "item 2 (12): " + tooLarge.getMessage(), tooLarge));
        store.close();

        LineSink again = new LineSink(out);
        ResultStore<Integer, Long> reopened = ResultStore.open(JournalOptions.store(dir, ""), app, keys, again);
        RunSummary summary = new RunSummary();
        reopened.addTo(summary);
        reopened.close();
        assertThat(reopened.resumed().size()).isEqualTo(1);
        assertThat(again.replayed).containsOnlyKeys("0 1");
        assertThat(again.replayedFailures).isEmpty();
        assertThat(summary.errors).isZero();
        assertThat(summary.failures).isEmpty();
    }

    @Test
    void anOptionNotGiven_isNamedSo_andAStoreNamingANeutralOptionIsStillThisJob() throws Exception {
        JournalTestApp app = new JournalTestApp(0);
        run(app, range(4), "cmd\n--k=6\n--max-entries=null", new RunSummary());
        // The store names --max-entries, not given; a run that has made it neutral no longer does.
        JournalOptions neutral = JournalOptions.store(dir, "cmd\n--k=6", Set.of("--max-entries"));
        LineSink sink = new LineSink(out);
        ResultStore<Integer, Long> store = ResultStore.open(neutral, app, range(4), sink);
        store.close();
        assertThat(store.resumed().size()).isEqualTo(6);
        // Whatever its value in the store.
        Path header = dir.resolve(ResultStore.HEADER);
        Files.writeString(header, Files.readString(header).replace("--max-entries=null", "--max-entries=20000"));
        ResultStore<Integer, Long> valued = ResultStore.open(neutral, app, range(4), new LineSink(out));
        valued.close();
        assertThat(valued.resumed().size()).isEqualTo(6);

        assertThatThrownBy(() -> ResultLog.check(JournalOptions.store(dir, "cmd\n--k=6\n--max-residues=500"), app))
                .hasMessage("--store: " + dir + " holds the results of another job (its options differ: "
                        + "--max-entries: 20000 in the store, not given now)");
        Files.writeString(header, Files.readString(header).replace("option --max-entries=20000\n", ""));
        assertThatThrownBy(() -> ResultLog.check(JournalOptions.store(dir, "cmd\n--k=6\n--max-residues=500"), app))
                .hasMessage("--store: " + dir + " holds the results of another job (its options differ: "
                        + "--max-residues: not given in the store, 500 now)");
        assertThatThrownBy(() -> ResultLog.check(JournalOptions.store(dir, "cmd\n--k=5"), app))
                .hasMessage("--store: " + dir + " holds the results of another job (its options differ: "
                        + "--k=6 in the store, --k=5 now)");
        // Not given either way: the same job.
        ResultLog.check(JournalOptions.store(dir, "cmd\n--k=6\n--max-residues=null"), app);
    }
}
