package io.rocket.runtime;

import io.rocket.core.summary.RunSummary;
import io.rocket.steal.PairSpace;
import io.rocket.results.journal.JournalOptions;
import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs that keep a record of their pairs above the old cap of 65,536 items (pair bitmaps indexed by {@code int}):
 * queries against 70,000 items with a result store, and again from the store.
 */
class PairLimitRunTest {
    private static final long SEED = 3;
    private static final int ITEMS = 70_000;
    private static final int QUERIES = 10;

    @TempDir
    Path tmp;

    private RunSummary run(SyntheticApp app, SyntheticCheck check) throws Exception {
        RocketOptions options = RocketOptions.defaults() // the cpu devices: results are the formula's
                .withJournal(JournalOptions.store(tmp.resolve("store"), "synthetic\n--seed=" + SEED));
        return Rocket.run(app, app.keys(), PairSpace.rectangle(ITEMS, QUERIES, QUERIES), options, check);
    }

    @Test
    void queriesAgainst70000Items_withAStore_computeEveryPairOnce_thenComeFromTheStore() throws Exception {
        SyntheticApp app = new SyntheticApp(new SyntheticApp.Config(ITEMS, 16, Cost.ZERO, Cost.ZERO, Cost.ZERO, SEED));
        long pairs = (long) QUERIES * (ITEMS - QUERIES);
        SyntheticCheck first = new SyntheticCheck(SEED, ITEMS, QUERIES, SyntheticCheck.Keep.ALL, true);
        RunSummary computed = run(app, first);
        assertThat(first.problem()).isNull();
        assertThat(computed.pairs).isEqualTo(pairs);

        SyntheticCheck again = new SyntheticCheck(SEED, ITEMS, QUERIES, SyntheticCheck.Keep.ALL, true);
        RunSummary reused = run(app, again);
        assertThat(again.problem()).isNull();
        assertThat(reused.pairsReused).isEqualTo(pairs);
    }
}
