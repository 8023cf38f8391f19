package io.rocket.results.journal;

import io.rocket.core.ItemException;
import io.rocket.core.RocketException;
import io.rocket.core.summary.RunSummary;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RunJournalTest extends RecordsOfKnownSize {
    private static final int ITEMS = 12;

    RunJournalTest() {
        super("journal");
    }

    /** Journals the first {@code pairs} pairs in row order; returns the sink's file length after each record. */
    private List<Long> journalPairs(JournalTestApp app, String options, int pairs) throws IOException {
        List<Long> lengths = new ArrayList<>();
        try (LineSink sink = new LineSink(out)) {
            RunJournal<Integer, Long> journal = RunJournal.open(new JournalOptions(dir, false, options), app,
                    app.keys(), sink);
            int k = 0;
            for (int i = 0; i < ITEMS && k < pairs; i++) {
                for (int j = i + 1; j < ITEMS && k < pairs; j++, k++) {
                    journal.sink().accept(i, j, i, j, value(i, j));
                    if ((k + 1) % RECORD_PAIRS == 0) {
                        lengths.add(Files.size(out));
                    }
                }
            }
            journal.close();
            lengths.add(Files.size(out));
        }
        return lengths;
    }

    private LineSink resume(JournalTestApp app, String options, List<RunJournal<Integer, Long>> opened) {
        LineSink sink = new LineSink(out);
        opened.add(RunJournal.open(new JournalOptions(dir, true, options), app, app.keys(), sink));
        return sink;
    }

    private static Map<String, Long> firstPairs(int pairs) {
        Map<String, Long> expected = new TreeMap<>();
        int k = 0;
        for (int i = 0; i < ITEMS && k < pairs; i++) {
            for (int j = i + 1; j < ITEMS && k < pairs; j++, k++) {
                expected.put(i + " " + j, value(i, j));
            }
        }
        return expected;
    }

    @Test
    void resume_replaysEveryJournaledResult_andCutsTheOutputBack() throws Exception {
        JournalTestApp app = new JournalTestApp(ITEMS);
        List<Long> lengths = journalPairs(app, "--a=1", 25);
        Files.writeString(out, "written after the last record\n", java.nio.file.StandardOpenOption.APPEND);
        List<RunJournal<Integer, Long>> opened = new ArrayList<>();
        try (LineSink sink = resume(app, "--a=1", opened)) {
            RunJournal<Integer, Long> journal = opened.get(0);
            assertThat(sink.replayed).isEqualTo(firstPairs(25));
            assertThat(sink.accepted).isEmpty();
            assertThat(journal.resumed().size()).isEqualTo(25);
            assertThat(journal.resumed().contains(2, 5)).isTrue();
            assertThat(journal.resumed().contains(3, 4)).isFalse();
            assertThat(Files.size(out)).isEqualTo(lengths.get(lengths.size() - 1));
            // The resumed run goes on appending to the same journal.
            journal.sink().accept(3, 4, 3, 4, value(3, 4));
            journal.sink().failed(3, 5, 3, 5, new ItemException(5, "item 5 (x): broken", null));
            journal.close();
        }
        try (LineSink sink = resume(app, "--a=1", opened)) {
            RunJournal<Integer, Long> journal = opened.get(1);
            assertThat(journal.resumed().size()).isEqualTo(27);
            assertThat(sink.replayed).containsEntry("3 4", value(3, 4));
            assertThat(sink.replayedFailures).containsEntry("3 5", "item 5 (x): broken");
            RunSummary summary = new RunSummary();
            summary.pairs = 0;
            journal.addTo(summary);
            assertThat(summary.pairsResumed).isEqualTo(27);
            assertThat(summary.errors).isEqualTo(1);
            assertThat(summary.pairs).isEqualTo(26);
            assertThat(summary.failures).containsExactly(new RunSummary.Failure(5, "5", "item 5 (x): broken"));
            journal.close();
            assertThat(Files.readString(out)).endsWith("3 4 3004\n3 5 failed\n");
        }
    }

    @Test
    void truncatedLastRecord_isDropped_andTheRunResumesFromTheRecordBefore() throws Exception {
        JournalTestApp app = new JournalTestApp(ITEMS);
        List<Long> lengths = journalPairs(app, "", 30);
        Path records = dir.resolve(JournalStore.RECORDS);
        long full = Files.size(records);
        try (RandomAccessFile f = new RandomAccessFile(records.toFile(), "rw")) {
            f.setLength(full - 7);
        }
        List<RunJournal<Integer, Long>> opened = new ArrayList<>();
        try (LineSink sink = resume(app, "", opened)) {
            assertThat(sink.replayed).isEqualTo(firstPairs(20));
            assertThat(Files.size(out)).isEqualTo(lengths.get(1));
            assertThat(Files.size(records)).isEqualTo(2 * (full / 3));
            opened.get(0).close();
        }
    }

    @Test
    void corruptLastRecord_isDropped_andTheRunResumesFromTheRecordBefore() throws Exception {
        JournalTestApp app = new JournalTestApp(ITEMS);
        List<Long> lengths = journalPairs(app, "", 30);
        Path records = dir.resolve(JournalStore.RECORDS);
        long full = Files.size(records);
        try (RandomAccessFile f = new RandomAccessFile(records.toFile(), "rw")) {
            f.seek(full - 20);
            int b = f.read();
            f.seek(full - 20);
            f.write(b ^ 0x10);
        }
        List<RunJournal<Integer, Long>> opened = new ArrayList<>();
        try (LineSink sink = resume(app, "", opened)) {
            assertThat(sink.replayed).isEqualTo(firstPairs(20));
            assertThat(Files.size(out)).isEqualTo(lengths.get(1));
            opened.get(0).close();
        }
    }

    @Test
    void resume_ofAnotherJob_isRefusedInOneLineNamingWhatDiffers() throws Exception {
        Path input = Files.writeString(tmp.resolve("item.txt"), "abc");
        List<Path> files = List.of(input, input, input, input, input, input, input, input, input, input, input, input);
        JournalTestApp app = new JournalTestApp(ITEMS, files, true);
        journalPairs(app, "--a=1\n--b=2", 5);
        List<RunJournal<Integer, Long>> opened = new ArrayList<>();
        assertThatThrownBy(() -> resume(app, "--a=1\n--b=3", opened)).isInstanceOf(RocketException.class)
                .hasMessage("--resume: " + dir + " holds the journal of another job (its options differ: --b=2 in "
                        + "the journal, --b=3 now)");
        assertThatThrownBy(() -> resume(new JournalTestApp(ITEMS + 1, List.of(), true), "--a=1\n--b=2", opened))
                .hasMessageContaining("another job (it has 12 items, this run 13)");
        Files.writeString(input, "abcd");
        assertThatThrownBy(() -> resume(app, "--a=1\n--b=2", opened))
                .hasMessageContaining("another job (its input files differ");
        assertThat(opened).isEmpty();
    }

    @Test
    void resume_withoutAJournal_andANewJournalOverAnOldOne_areRefused() throws Exception {
        JournalTestApp app = new JournalTestApp(ITEMS);
        assertThatThrownBy(() -> RunJournal.check(new JournalOptions(dir, true, "")))
                .hasMessage("--resume: no journal in " + dir);
        journalPairs(app, "", 3);
        assertThatThrownBy(() -> RunJournal.open(new JournalOptions(dir, false, ""), app, app.keys(),
                new LineSink(out))).hasMessage(dir + " already holds a journal; add --resume to continue it or "
                + "remove it");
        assertThatThrownBy(() -> RunJournal.open(new JournalOptions(tmp.resolve("other"), false, ""),
                new JournalTestApp(ITEMS, List.of(), false), app.keys(), new LineSink(out)))
                .hasMessageContaining("cannot keep a journal: it defines no result codec");
    }

    @Test
    void resume_withAnOutputShorterThanJournaled_isRefused() throws Exception {
        JournalTestApp app = new JournalTestApp(ITEMS);
        journalPairs(app, "", 15);
        Files.writeString(out, "");
        List<RunJournal<Integer, Long>> opened = new ArrayList<>();
        assertThatThrownBy(() -> resume(app, "", opened)).hasMessageStartingWith("--resume: ")
                .hasMessageContaining("is too short");
    }
}
