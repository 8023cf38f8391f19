package io.rocket.runtime;

import io.rocket.steal.PairSpace;
import io.rocket.steal.journal.JournalOptions;
import io.rocket.testkit.Cost;
import io.rocket.testkit.SyntheticApp;
import io.rocket.testkit.SyntheticCheck;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A run that would track more pairs than it can is refused before it opens anything. */
class PairLimitRunTest {
    @TempDir
    Path tmp;

    @Test
    void aStoreOver70000Items_isRefusedAtTheStart_andNothingIsWritten() {
        SyntheticApp app = new SyntheticApp(new SyntheticApp.Config(70_000, 64, Cost.ZERO, Cost.ZERO, Cost.ZERO, 1));
        Path store = tmp.resolve("store");
        RocketOptions options = RocketOptions.defaults().withJournal(JournalOptions.store(store, "synthetic"));
        assertThatThrownBy(() -> Rocket.run(app, app.keys(), PairSpace.triangle(70_000), options, new SyntheticCheck(1, 70_000, false)))
                .hasMessageStartingWith("70,000 items make 2,449,965,000 pairs, more than a run can track");
        assertThatThrownBy(() -> Rocket.run(app, app.keys(), PairSpace.rectangle(70_000, 10, 10),
                RocketOptions.defaults(), new SyntheticCheck(1, 70_000, false)))
                .hasMessageContaining("tracks the pairs outside it");
        assertThat(store).doesNotExist();
    }
}
