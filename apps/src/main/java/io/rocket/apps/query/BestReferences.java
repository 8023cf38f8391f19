package io.rocket.apps.query;

import io.rocket.cli.QueryBlock;
import io.rocket.core.ResultSink;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The K best references of every query of an {@code --against} run, by score, gathered from the streamed results:
 * what "identify this photo" and "place this proteome" need. A pair of a query and a reference counts for the query
 * (and, when both items are in both lists, for each of them). Memory is queries × K, fixed at the start; results
 * arrive from several runtime threads, so offers are serialized.
 *
 * @param <K> the key type
 * @param <R> the result type
 */
public final class BestReferences<K, R> implements ResultSink<K, R> {

    /**
     * One reference of a query.
     *
     * @param reference the reference's item index
     * @param score     the pair's score
     */
    public record Match(int reference, double score) {
    }

    private final QueryBlock block;
    private final int k;
    private final ToDoubleFunction<R> score;
    private final boolean smallerIsBetter;
    private final int[] references;
    private final double[] scores;
    private final int[] counts;

    /**
     * Keeps the {@code k} best references of each query.
     *
     * @param block           where the queries and references lie
     * @param k               how many references to keep per query, at least 1
     * @param score           a result's score; NaN scores are not kept
     * @param smallerIsBetter whether a smaller score is better (distances)
     * @throws IllegalArgumentException when {@code k} is below 1
     */
    public BestReferences(QueryBlock block, int k, ToDoubleFunction<R> score, boolean smallerIsBetter) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be at least 1, got " + k);
        }
        this.block = block;
        this.k = Math.min(k, block.references());
        this.score = score;
        this.smallerIsBetter = smallerIsBetter;
        this.references = new int[block.queries() * this.k];
        this.scores = new double[block.queries() * this.k];
        this.counts = new int[block.queries()];
    }

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        double s = score.applyAsDouble(result);
        if (Double.isNaN(s)) {
            return;
        }
        if (block.isQuery(i) && block.isReference(j)) {
            offer(i, j, s);
        }
        if (block.isQuery(j) && block.isReference(i)) {
            offer(j, i, s);
        }
    }

    @Override
    public void failed(int i, int j, K left, K right, Throwable error) {
        // a failed pair is no match
    }

    /** Inserts {@code reference} into the query's sorted slots when it beats the worst kept one. */
    private synchronized void offer(int query, int reference, double s) {
        int base = query * k;
        int n = counts[query];
        int at = n;
        while (at > 0 && better(s, reference, scores[base + at - 1], references[base + at - 1])) {
            at--;
        }
        if (at >= k) {
            return;
        }
        int last = Math.min(n, k - 1);
        for (int m = last; m > at; m--) {
            scores[base + m] = scores[base + m - 1];
            references[base + m] = references[base + m - 1];
        }
        scores[base + at] = s;
        references[base + at] = reference;
        counts[query] = Math.min(n + 1, k);
    }

    /** Better score first; equal scores by the lower reference index, so the order does not depend on arrival. */
    private boolean better(double s, int reference, double other, int otherReference) {
        if (s != other) {
            return smallerIsBetter ? s < other : s > other;
        }
        return reference < otherReference;
    }

    /**
     * The kept references of a query, best first.
     *
     * @param query the query's item index
     * @return at most K matches; empty when none of the query's pairs arrived with a score
     */
    public synchronized List<Match> matches(int query) {
        List<Match> out = new ArrayList<>(counts[query]);
        for (int m = 0; m < counts[query]; m++) {
            out.add(new Match(references[query * k + m], scores[query * k + m]));
        }
        return out;
    }

    /**
     * The query ranges this collector was made for.
     *
     * @return the block
     */
    public QueryBlock block() {
        return block;
    }
}
