package io.rocket.cli;

import io.rocket.core.RocketException;
import io.rocket.inputs.InputLocations;
import io.rocket.inputs.ListFile;
import io.rocket.runtime.PairListFile;
import io.rocket.runtime.QueryReference;
import io.rocket.steal.PairSpace;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Function;

/**
 * Which pairs a command computes: every pair of its items (the default), its items as queries against
 * {@code --against} references, the pairs listed in {@code --pairs FILE}, or, with both options, the union of the
 * two. See the user guide's "Pair spaces" page.
 */
public final class PairSpaceMixin {

    @Option(names = "--against", paramLabel = "LIST|DIR", description = "Compare the items (the queries) with these "
            + "references only: a directory (its files) or a file with one key or location per line (-: standard "
            + "input). An item in both lists is compared with the others once, never with itself. Results index the "
            + "combined list: the queries only, the items in both, then the references only.")
    String against;

    @Option(names = "--pairs", paramLabel = "FILE", description = "Compute only the pairs listed in FILE (-: "
            + "standard input), one per line: two 0-based indices (of the combined list, with --against) or two "
            + "labels; # comments. With --against, these pairs are computed as well.")
    Path pairs;

    /** Options at their defaults (every pair); picocli sets the ones given. */
    public PairSpaceMixin() {
    }

    /**
     * The items of a run and the pairs of them it computes.
     *
     * @param items the run's keys, in index order (the combined list with {@code --against})
     * @param space the pairs to compute, of {@code items}
     * @param block where the queries and references lie with {@code --against}; null without it
     * @param <K>   the key type
     */
    public record Items<K>(List<K> items, PairSpace space, QueryBlock block) {

        /**
         * The output settings for this run: with {@code --against} and no pair outside its rectangle, a dense
         * matrix has the queries as rows and the references as columns; otherwise {@code outputs} as they are.
         *
         * @param outputs   the settings the options gave
         * @param symmetric whether the application's function is symmetric
         * @return the settings with the rectangle's layout, or {@code outputs}
         */
        public OutputSettings outputs(OutputSettings outputs, boolean symmetric) {
            // A union with --pairs holds the rectangle; as many pairs means nothing beyond it.
            if (block == null || space.pairs() != block.space().pairs()) {
                return outputs;
            }
            return outputs.withLayout(block.layout(symmetric));
        }

        /**
         * The run's items as a command's first line names them: {@code 12 photos in DIR}, or with {@code --against}
         * {@code 2 query photos in DIR against 10 references in REFS} (an item in both lists counts in both).
         *
         * @param noun       what an item is ("photo")
         * @param source     where the items (the queries) are, as messages name it
         * @param references where the references are, as messages name it; unused without {@code --against}
         * @return the counts and where they are
         */
        public String describe(String noun, String source, String references) {
            if (block == null) {
                return count(items.size(), noun) + " in " + source;
            }
            return count(block.queries(), "query " + noun) + " in " + source + " against "
                    + count(block.references(), "reference") + " in " + references;
        }

        private static String count(int n, String noun) {
            return n + " " + noun + (n == 1 ? "" : "s");
        }
    }

    /**
     * Whether {@code --against} names references, so that one item (a single query) is enough.
     *
     * @return true with {@code --against}
     */
    public boolean hasReferences() {
        return against != null;
    }

    /**
     * The run's items and pairs for the command's own {@code keys}.
     *
     * @param keys  the command's items (the queries with {@code --against})
     * @param parse makes a key of one line of the reference list, or of one file of the reference directory (its
     *              location as text)
     * @param label the label of a key, as the results show it (a {@code --pairs} line may name items by it)
     * @param <K>   the key type
     * @return the items and the space; every pair of {@code keys} without either option
     * @throws RocketException when the references cannot be read or are none, or a {@code --pairs} line is not a
     *                         pair of the items (naming the line)
     */
    public <K> Items<K> resolve(List<K> keys, Function<String, K> parse, Function<K, String> label) {
        List<K> references = null;
        if (against != null) {
            references = new ArrayList<>();
            for (String text : referenceTexts()) {
                references.add(parse.apply(text));
            }
        }
        return resolve(keys, references, label);
    }

    /**
     * The run's items and pairs for the command's own {@code keys} and the references it found itself (an
     * application that lists its reference directory as it lists its own, see {@link #referenceSource()}).
     *
     * @param keys       the command's items (the queries with {@code --against})
     * @param references the reference keys, or null without {@code --against}
     * @param label      the label of a key, as the results show it
     * @param <K>        the key type
     * @return the items and the space; every pair of {@code keys} without either option
     * @throws RocketException when the references are none, or a {@code --pairs} line is not a pair of the items
     */
    public <K> Items<K> resolve(List<K> keys, List<K> references, Function<K, String> label) {
        List<K> items = keys;
        PairSpace space = PairSpace.triangle(keys.size());
        QueryBlock block = null;
        if (references != null) {
            if (references.isEmpty()) {
                throw new RocketException("--against " + against + ": no items (an empty list or directory)");
            }
            QueryReference<K> combined = QueryReference.of(keys, references);
            items = combined.items();
            space = combined.space();
            int referenceStart = items.size() - new LinkedHashSet<>(references).size();
            block = new QueryBlock(items.size(), combined.queries(), referenceStart);
        }
        if (pairs != null) {
            PairSpace listed = PairListFile.read(pairs, items.stream().map(label).toList());
            space = against == null ? listed : PairSpace.union(List.of(space, listed));
        }
        return new Items<>(items, space, block);
    }

    /**
     * Where {@code --against} points, for an application that lists references as it lists its own inputs: a
     * file is a list of inputs (one per line), anything else a directory.
     *
     * @return the source of the references, resolved; null without {@code --against}
     * @throws CommandFailure  ({@link ExitCode#USAGE}) naming {@code --against} when it is neither a directory nor
     *                         a list file
     * @throws RocketException when the list cannot be read or the directory cannot be resolved
     */
    public InputsMixin.Source referenceSource() {
        if (against == null) {
            return null;
        }
        InputLocations locations = InputLocations.defaults();
        if (isList()) {
            return new InputsMixin.Source(null, locations.readList(Path.of(against)),
                    ListFile.display(Path.of(against)));
        }
        Path resolved = locations.resolve(against);
        if (!Files.isDirectory(resolved)) {
            throw notFound(Files.exists(resolved));
        }
        return new InputsMixin.Source(resolved, null, InputLocations.display(resolved));
    }

    /** Whether {@code --against} names a list: a file, or {@code -} for standard input. */
    private boolean isList() {
        Path local = Path.of(against);
        return ListFile.isStdin(local) || Files.isRegularFile(local);
    }

    /** The one line for an {@code --against} that names neither a directory nor a list file. */
    private CommandFailure notFound(boolean exists) {
        return new CommandFailure(ExitCode.USAGE, "--against " + against + (exists
                ? ": not a directory or a list file" : ": no such directory or list file"));
    }

    /** The reference keys as text: a directory's files, or a list file's lines. */
    private List<String> referenceTexts() {
        Path local = Path.of(against);
        if (isList()) {
            return KeyArguments.texts(List.of("@" + against));
        }
        List<String> texts = KeyArguments.texts(List.of(against));
        if (texts.size() == 1 && texts.get(0).equals(against)) {
            throw notFound(Files.exists(local));
        }
        return texts;
    }
}
