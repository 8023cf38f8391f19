package io.rocket.apps.phylogenetics;

import io.rocket.core.ResultSink;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;

/**
 * Gathers the streamed pair distances into the n×n matrix that the tree builders and the PHYLIP writer need (one
 * double per pair: 1.6 GB at n = 20,000), remembering which pairs arrived. A tree needs every distance among its
 * leaves, so {@link #complete} leaves out the items that failed to load, then taxa until no pair is missing: greedily
 * the taxon missing the most pairs first, so one taxon of each failed pair. Thread-safe: results arrive from several
 * runtime threads.
 */
public final class DistanceCollector implements ResultSink<Path, Double> {

    /**
     * The usable part of the results.
     *
     * @param matrix  distances among the kept taxa, in key order
     * @param dropped indices of the taxa left out, ascending
     */
    public record Outcome(DistanceMatrix matrix, List<Integer> dropped) {
    }

    private final DistanceMatrix all;
    private final BitSet arrived;

    /** A collector for the taxa {@code labels}, in key order. */
    public DistanceCollector(List<String> labels) {
        this.all = new DistanceMatrix(labels);
        this.arrived = new BitSet((int) Math.max(1, (long) labels.size() * (labels.size() - 1) / 2));
    }

    @Override
    public synchronized void accept(int i, int j, Path left, Path right, Double distance) {
        all.set(i, j, distance);
        arrived.set(DistanceMatrix.index(i, j));
    }

    @Override
    public void failed(int i, int j, Path left, Path right, Throwable error) {
        // nothing to keep: a pair that never arrived is what complete() looks for
    }

    /**
     * The matrix of the taxa whose pairs all arrived (all of them when nothing failed), leaving out at least the
     * {@code failedItems} (items that could not be loaded: the only taxon left beside them would otherwise look
     * complete).
     */
    public synchronized Outcome complete(Set<Integer> failedItems) {
        int n = all.size();
        boolean[] dropped = new boolean[n];
        List<Integer> droppedList = new ArrayList<>();
        for (int item : failedItems) {
            dropped[item] = true;
            droppedList.add(item);
        }
        int[] missing = new int[n];
        for (int i = 1; i < n; i++) {
            for (int j = 0; j < i; j++) {
                if (!dropped[i] && !dropped[j] && !arrived.get(DistanceMatrix.index(i, j))) {
                    missing[i]++;
                    missing[j]++;
                }
            }
        }
        while (true) {
            int worst = -1;
            for (int t = 0; t < n; t++) {
                if (missing[t] > 0 && (worst < 0 || missing[t] > missing[worst])) {
                    worst = t;
                }
            }
            if (worst < 0) {
                break;
            }
            dropped[worst] = true;
            droppedList.add(worst);
            missing[worst] = 0;
            for (int t = 0; t < n; t++) {
                if (!dropped[t] && t != worst && !arrived.get(DistanceMatrix.index(worst, t))) {
                    missing[t]--;
                }
            }
        }
        droppedList.sort(null);
        return new Outcome(droppedList.isEmpty() ? all : keep(dropped), List.copyOf(droppedList));
    }

    private DistanceMatrix keep(boolean[] dropped) {
        List<Integer> kept = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int t = 0; t < dropped.length; t++) {
            if (!dropped[t]) {
                kept.add(t);
                names.add(all.name(t));
            }
        }
        DistanceMatrix matrix = new DistanceMatrix(names);
        for (int a = 1; a < kept.size(); a++) {
            for (int b = 0; b < a; b++) {
                matrix.set(a, b, all.get(kept.get(a), kept.get(b)));
            }
        }
        return matrix;
    }
}
