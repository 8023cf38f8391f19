package io.rocket.runtime;

import io.rocket.core.RocketException;
import io.rocket.steal.PairSpace;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Queries against references as one run: the two key lists combined into one, ordered [queries only, in both,
 * references only] (each key once, compared with {@code equals}), and the {@link PairSpace#rectangle rectangle} of
 * its pairs (a query with a reference; a pair of two keys in both lists once, never a key with itself). The indices
 * of the results are those of {@link #items()}.
 *
 * @param items   every key once: the queries only, then those in both lists, then the references only
 * @param space   the pairs of a query and a reference, of {@code items}
 * @param queries how many of {@code items} are queries: the first {@code queries}
 * @param <K>     the key type
 */
public record QueryReference<K>(List<K> items, PairSpace space, int queries) {

    /**
     * The combined items and the rectangle of their pairs.
     *
     * @param queries    the query keys; a key listed twice counts once
     * @param references the reference keys; a key listed twice counts once
     * @param <K>        the key type
     * @return the combined run
     * @throws RocketException when either list is empty, or the two lists together hold only one key
     */
    public static <K> QueryReference<K> of(List<K> queries, List<K> references) {
        if (queries.isEmpty()) {
            throw new RocketException("no queries: give at least one item to compare with the references");
        }
        if (references.isEmpty()) {
            throw new RocketException("no references: the reference list has no items");
        }
        Set<K> query = new LinkedHashSet<>(queries);
        Set<K> reference = new LinkedHashSet<>(references);
        List<K> items = new ArrayList<>(query.size() + reference.size());
        List<K> shared = new ArrayList<>();
        for (K key : query) {
            (reference.contains(key) ? shared : items).add(key);
        }
        int queriesOnly = items.size();
        items.addAll(shared);
        for (K key : reference) {
            if (!query.contains(key)) {
                items.add(key);
            }
        }
        if (items.size() < 2) {
            throw new RocketException("the queries and references are the same one item: no pair to compute");
        }
        int queryEnd = queriesOnly + shared.size();
        return new QueryReference<>(List.copyOf(items), PairSpace.rectangle(items.size(), queryEnd, queriesOnly),
                queryEnd);
    }
}
