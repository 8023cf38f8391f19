package io.rocket.results.journal;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;

/**
 * Where a run keeps its results for later runs: a journal ({@code --journal DIR}, and whether to continue the one
 * found there, {@code --resume}) or a result store ({@code --store DIR}, which always continues). A job's identity
 * is its application and {@code options}: the application's own settings as text, which the caller knows and the
 * runtime does not; a journal adds its keys and their input files, a store keys each result by its two items'
 * identities instead. Nothing about where the run happens belongs in it (nodes, ports, devices, caches, outputs), so
 * a requeued job resumes on other machines.
 *
 * @param dir     the journal's or store's directory (created when missing)
 * @param resume  continue the journal in {@code dir} instead of starting one (a store always continues)
 * @param options the application's settings, one per line; may be empty. For a store, only those that change a
 *                pair's result
 * @param store   a result store keyed by item identity ({@link ResultStore}) rather than a journal
 * @param compact a store only: at the end of a run, rewrite the store keeping only the pairs of the run's items
 *                when enough of it is dead ({@link StoreCompaction})
 * @param neutralOptions a store only: the names of the command's options that change no pair's result; they are
 *                not in {@code options}, and a store made while one of them was still part of the job's identity
 *                is read without its line
 * @param repair  a store only ({@code --store-repair}): a store whose log is damaged in the middle keeps its good
 *                records and drops the damaged ones ({@link StoreCompaction#repair}), rather than being refused
 */
public record JournalOptions(Path dir, boolean resume, String options, boolean store, boolean compact,
                             Set<String> neutralOptions, boolean repair) {
    /**
     * Checks the directory and fills in empty options.
     *
     * @param dir     the directory, never null
     * @param resume  continue a journal
     * @param options the application's settings, or null for none
     * @param store   a result store rather than a journal
     * @param compact compact the store at the end of a run
     * @param neutralOptions names of options that change no result, or null for none
     * @param repair  repair a damaged store rather than refuse it
     */
    public JournalOptions {
        Objects.requireNonNull(dir, "dir");
        options = options == null ? "" : options;
        neutralOptions = neutralOptions == null ? Set.of() : Set.copyOf(neutralOptions);
    }

    /**
     * Settings that do not repair a store.
     *
     * @param dir     the directory, never null
     * @param resume  continue a journal
     * @param options the application's settings, or null for none
     * @param store   a result store rather than a journal
     * @param compact compact the store at the end of a run
     * @param neutralOptions names of options that change no result, or null for none
     */
    public JournalOptions(Path dir, boolean resume, String options, boolean store, boolean compact,
                          Set<String> neutralOptions) {
        this(dir, resume, options, store, compact, neutralOptions, false);
    }

    /**
     * A journal's settings.
     *
     * @param dir     the journal directory (created when missing)
     * @param resume  continue the journal in {@code dir} instead of starting one
     * @param options the application's settings, one per line; may be empty
     */
    public JournalOptions(Path dir, boolean resume, String options) {
        this(dir, resume, options, false, false, Set.of());
    }

    /**
     * A journal's or store's settings, without compaction.
     *
     * @param dir     the directory (created when missing)
     * @param resume  continue a journal
     * @param options the application's settings, or null for none
     * @param store   a result store rather than a journal
     */
    public JournalOptions(Path dir, boolean resume, String options, boolean store) {
        this(dir, resume, options, store, false, Set.of());
    }

    /**
     * The option that asked for these settings, for a message.
     *
     * @return {@code --store} or {@code --journal}
     */
    public String option() {
        return store ? "--store" : "--journal";
    }

    /**
     * These settings, compacting the store at the end of a run or not.
     *
     * @param value whether to compact ({@code --compact-store})
     * @return the settings with {@code compact} set to {@code value}
     */
    public JournalOptions withCompaction(boolean value) {
        return new JournalOptions(dir, resume, options, store, value, neutralOptions, repair);
    }

    /**
     * These settings, repairing a damaged store or not.
     *
     * @param value whether to repair ({@code --store-repair})
     * @return the settings with {@code repair} set to {@code value}
     */
    public JournalOptions withRepair(boolean value) {
        return new JournalOptions(dir, resume, options, store, compact, neutralOptions, value);
    }

    /**
     * A result store's settings.
     *
     * @param dir     the store's directory (created when missing)
     * @param options the application's settings that change a pair's result, one per line; may be empty
     * @return the settings of a store in {@code dir}
     */
    public static JournalOptions store(Path dir, String options) {
        return store(dir, options, Set.of());
    }

    /**
     * A result store's settings, for a command some of whose options change no result.
     *
     * @param dir            the store's directory (created when missing)
     * @param options        the application's settings that change a pair's result, one per line; may be empty
     * @param neutralOptions the names of the options that do not ({@code --threshold}): a store whose identity
     *                       still names one (made before it was marked so) is read without it
     * @return the settings of a store in {@code dir}
     */
    public static JournalOptions store(Path dir, String options, Set<String> neutralOptions) {
        return new JournalOptions(dir, false, options, true, false, neutralOptions);
    }
}
