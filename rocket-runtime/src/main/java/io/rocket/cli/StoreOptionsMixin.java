package io.rocket.cli;

import io.rocket.core.UsageException;
import io.rocket.core.RocketException;
import io.rocket.results.journal.JournalOptions;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * The result store option ({@code --store DIR}): every pair result kept by its two items' identities, so that the
 * same command over a grown collection computes only the new pairs, a run that died continues, and a run over the
 * same items computes nothing and writes every output again from the store. Not part of a job's identity (only rank
 * 0 keeps the store). See the user guide's "Growing a collection".
 */
public final class StoreOptionsMixin {

    @Option(names = "--store", paramLabel = "DIR",
            description = "Keep every pair result in the result store DIR (by rank 0 in a cluster run), keyed by each "
                    + "item's identity (label, file sizes and times) and the job's (the application and the options "
                    + "that change a result): a later run of the same command takes the pairs the store holds, "
                    + "computes only the others (new items, changed files, a run that died) and writes the whole "
                    + "result. A store of another job is refused.")
    Path store;

    @Option(names = "--compact-store",
            description = "With --store: at the end of the run, rewrite the store keeping only the pairs of this "
                    + "run's items (dropping those of changed files, of items no longer given and pairs stored twice) "
                    + "when at least a quarter of its pairs are dead. Give it on runs over the whole collection: the "
                    + "pairs of items a run does not name are dropped.")
    boolean compact;

    @Option(names = "--store-repair",
            description = "With --store: when the store's log is damaged in the middle (a bad record followed by "
                    + "good ones), keep its good records and drop the damaged ones, with a warning naming the bytes "
                    + "and records dropped (their pairs are computed again), rather than refusing the store.")
    boolean repair;

    /** No store; picocli sets the one given. */
    public StoreOptionsMixin() {
    }

    /**
     * The {@code --store} directory.
     *
     * @return the directory as given, or null without {@code --store}
     */
    public Path store() {
        return store;
    }

    /**
     * The store's settings, or {@code journal} without a store.
     *
     * @param command    the command, whose {@link ResultNeutral} options are left out of the store's identity
     * @param jobOptions the command's {@link RuntimeOptionsMixin#jobOptions()}
     * @param journal    the {@code --journal} settings, or null
     * @return the settings of the store in {@code --store DIR}; {@code journal} as it is without {@code --store}
     * @throws RocketException when both {@code --store} and {@code --journal} are given, or
     *                         {@code --compact-store} or {@code --store-repair} without {@code --store}
     */
    public JournalOptions apply(CommandSpec command, String jobOptions, JournalOptions journal) {
        if (store == null) {
            if (compact) {
                throw new UsageException("--compact-store: give it with --store DIR");
            }
            if (repair) {
                throw new UsageException("--store-repair: give it with --store DIR");
            }
            return journal;
        }
        if (journal != null) {
            throw new UsageException("--store and --journal: give one of them (the store continues an earlier run "
                    + "by itself)");
        }
        return JournalOptions.store(store, resultOptions(command, jobOptions), neutralOptions(command))
                .withCompaction(compact).withRepair(repair);
    }

    /**
     * The names of the command's options marked {@link ResultNeutral}, as {@link RuntimeOptionsMixin#jobOptions()}
     * names them: left out of a store's identity, and ignored in the identity of a store made before they were
     * marked.
     */
    static Set<String> neutralOptions(CommandSpec command) {
        Set<String> names = new HashSet<>();
        for (OptionSpec option : command.options()) {
            if (isNeutral(option)) {
                names.add(option.longestName());
            }
        }
        return names;
    }

    private static boolean isNeutral(OptionSpec option) {
        return option != null && option.userObject() instanceof Field field
                && field.isAnnotationPresent(ResultNeutral.class);
    }

    /**
     * The lines of {@code jobOptions} that change a pair's result: the first line (the command) and every
     * {@code --option=value} line whose option is not marked {@link ResultNeutral}.
     */
    static String resultOptions(CommandSpec command, String jobOptions) {
        StringBuilder kept = new StringBuilder();
        for (String line : jobOptions.split("\n", -1)) {
            int equals = line.indexOf('=');
            OptionSpec option = kept.isEmpty() || equals < 0 ? null : command.findOption(line.substring(0, equals));
            if (isNeutral(option)) {
                continue;
            }
            if (!kept.isEmpty()) {
                kept.append('\n');
            }
            kept.append(line);
        }
        return kept.toString();
    }
}
