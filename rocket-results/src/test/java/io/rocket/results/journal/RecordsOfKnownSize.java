package io.rocket.results.journal;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;

/**
 * What the tests of journals and stores share: a log directory and a sink file in a fresh temporary directory, and
 * the test hook that writes a record after every {@link #RECORD_PAIRS} pairs and never on the clock, so that a test
 * can cut a log between records at a known place. The hook is a system property: it is cleared after each test, so
 * that it reaches no other test.
 */
abstract class RecordsOfKnownSize {
    static final int RECORD_PAIRS = 10;

    @TempDir
    Path tmp;

    /** The journal's or the store's directory: not made yet. */
    Path dir;
    /** The sink's file. */
    Path out;

    private final String dirName;

    /** @param dirName the log directory's name in the temporary directory */
    RecordsOfKnownSize(String dirName) {
        this.dirName = dirName;
    }

    @BeforeEach
    void recordsOfKnownSize() {
        dir = tmp.resolve(dirName);
        out = tmp.resolve("pairs.txt");
        System.setProperty(RunJournal.RECORD_PAIRS_PROPERTY, "" + RECORD_PAIRS);
    }

    @AfterEach
    void clearHook() {
        System.clearProperty(RunJournal.RECORD_PAIRS_PROPERTY);
    }

    /** A result that depends only on the two items (their keys), as a deterministic function would. */
    static long value(int left, int right) {
        return 1000L * left + right;
    }

    static List<Integer> range(int n) {
        return IntStream.range(0, n).boxed().toList();
    }
}
