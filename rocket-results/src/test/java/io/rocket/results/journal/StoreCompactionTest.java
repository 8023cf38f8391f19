package io.rocket.results.journal;

import io.rocket.core.ItemException;
import io.rocket.core.ResultCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class StoreCompactionTest {
    @TempDir
    Path tmp;

    private Path dir;
    private final List<Path> files = new ArrayList<>();

    private static long value(int left, int right) {
        return 1000L * left + right;
    }

    private static List<Integer> range(int n) {
        return IntStream.range(0, n).boxed().toList();
    }

    private JournalTestApp app() {
        return new JournalTestApp(files.size(), files, true);
    }

    /** One run over {@code keys}: computes every pair the store does not hold; returns every pair's result. */
    private Map<String, Long> run(List<Integer> keys, boolean compact) throws Exception {
        LineSink sink = new LineSink(tmp.resolve("pairs.txt"));
        ResultStore<Integer, Long> store = ResultStore.open(JournalOptions.store(dir, "").withCompaction(compact),
                app(), keys, sink);
        for (int i = 0; i < keys.size(); i++) {
            for (int j = i + 1; j < keys.size(); j++) {
                if (!store.resumed().contains(i, j)) {
                    store.sink().accept(i, j, keys.get(i), keys.get(j), value(keys.get(i), keys.get(j)));
                }
            }
        }
        store.close();
        sink.close();
        Map<String, Long> all = new TreeMap<>(sink.replayed);
        all.putAll(sink.accepted);
        return all;
    }

    /** The pairs a run over {@code keys} takes from the store, without computing any. */
    private LineSink replay(List<Integer> keys) throws Exception {
        LineSink sink = new LineSink(tmp.resolve("replay.txt"));
        ResultStore<Integer, Long> store = ResultStore.open(JournalOptions.store(dir, ""), app(), keys, sink);
        store.close();
        sink.close();
        return sink;
    }

    private Set<String> identities(List<Integer> keys) {
        Set<String> ids = new HashSet<>();
        for (int key : keys) {
            ids.add(ItemIdentity.of(app(), key));
        }
        return ids;
    }

    private void items(int n) throws Exception {
        dir = tmp.resolve("store");
        for (int k = 0; k < n; k++) {
            files.add(Files.writeString(tmp.resolve("item" + k + ".txt"), "item " + k));
        }
    }

    @Test
    void aGrownChangedAndShrunkCollection_compactsToExactlyItsLiveRecords_withTheSameResults() throws Exception {
        items(9);
        run(range(6), false);                               // 15 pairs
        run(range(9), false);                               // grown: 36 pairs, 21 of them new
        Files.writeString(files.get(2), "item 2, changed");
        run(range(9), false);                               // item 2's 8 pairs again, the old 8 dead
        List<Integer> live = List.of(0, 1, 2, 3, 4, 5, 6, 7); // item 8 left the collection: its 8 pairs dead
        Map<String, Long> before = run(live, false);
        long bytesBefore = Files.size(dir.resolve(JournalStore.RECORDS));

        StoreCompaction.Outcome o = StoreCompaction.compact(dir, ResultCodec.LONG, identities(live), 0);

        assertThat(o.rewritten()).isTrue();
        assertThat(o.pairs()).isEqualTo(36 + 8);
        assertThat(o.livePairs()).isEqualTo(28);
        assertThat(o.items()).isEqualTo(10);                 // 9 items and item 2's second identity
        assertThat(o.liveItems()).isEqualTo(8);
        assertThat(Files.size(dir.resolve(JournalStore.RECORDS))).isLessThan(bytesBefore);
        LineSink after = replay(live);
        assertThat(after.replayed).isEqualTo(before);
        assertThat(after.replayed).hasSize(28);
        // Exactly the live records are left: nothing more to drop.
        StoreCompaction.Outcome again = StoreCompaction.compact(dir, ResultCodec.LONG, identities(live), 0);
        assertThat(again.pairs()).isEqualTo(28);
        assertThat(again.items()).isEqualTo(8);
        assertThat(again.rewritten()).isFalse();
    }

    @Test
    void aPairStoredTwice_andFailedItems_areKeptOnce() throws Exception {
        items(3);
        List<Integer> keys = range(3);
        LineSink sink = new LineSink(tmp.resolve("pairs.txt"));
        ResultStore<Integer, Long> store = ResultStore.open(JournalOptions.store(dir, ""), app(), keys, sink);
        store.sink().accept(0, 1, 0, 1, 7L);
        store.sink().failed(0, 2, 0, 2, new ItemException(2, "item 2: broken", null));
        store.close();
        // A run that died before its record was written computes (0, 1) again: stored twice.
        store = ResultStore.open(JournalOptions.store(dir, ""), app(), keys, new LineSink(tmp.resolve("p2.txt")));
        store.sink().accept(0, 1, 0, 1, 7L);
        store.close();

        StoreCompaction.Outcome o = StoreCompaction.compact(dir, ResultCodec.LONG, identities(keys), 0);

        assertThat(o.pairs()).isEqualTo(3);
        assertThat(o.livePairs()).isEqualTo(2);
        LineSink after = replay(keys);
        assertThat(after.replayed).containsExactly(Map.entry("0 1", 7L));
        assertThat(after.replayedFailures).containsOnlyKeys("0 2");
    }

    @Test
    void theEndOfARun_compactsOnlyWhenEnoughIsDead() throws Exception {
        items(10);
        run(range(10), false);                              // 45 pairs
        long full = Files.size(dir.resolve(JournalStore.RECORDS));
        run(range(9), true);                                // 9 of 45 dead: 20 %, below the fraction
        assertThat(Files.size(dir.resolve(JournalStore.RECORDS))).isEqualTo(full);
        Map<String, Long> kept = run(range(6), true);       // 30 of 45 dead: rewritten
        assertThat(Files.size(dir.resolve(JournalStore.RECORDS))).isLessThan(full);
        assertThat(replay(range(6)).replayed).isEqualTo(kept).hasSize(15);
        assertThat(replay(range(10)).replayed).hasSize(15); // the dropped items' pairs are gone
    }

    @Test
    void aCompactionThatDied_leavesTheStoreReadable_andItsTemporaryFileIsRemoved() throws Exception {
        items(5);
        Map<String, Long> before = run(range(5), false);
        Path temp = dir.resolve(StoreCompaction.TEMP);
        Files.write(temp, new byte[]{0, 0, 0, 9, 1, 2, 3}); // the start of a new log, never renamed

        LineSink after = replay(range(5));

        assertThat(after.replayed).isEqualTo(before).hasSize(10);
        assertThat(temp).doesNotExist();
    }
}
