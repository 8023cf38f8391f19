package io.rocket.apps.forensics;

import io.rocket.core.ResultSink;

import java.nio.file.Path;

/**
 * The pair scores that the forensics clusters are made from, gathered while the run streams its results: every
 * score in the dense matrix ({@link SimilarityCollector}), or only the pairs a reduction kept ({@link ScoreGraph}).
 */
public interface PhotoScores extends ResultSink<Path, Double> {

    /**
     * The number of photos.
     *
     * @return n, the photos of the run
     */
    int size();

    /**
     * Clusters the photos that loaded by average linkage, cut at {@code threshold}.
     *
     * @param loaded    the photos to cluster, ascending indices (those that failed to load are left out)
     * @param threshold merges at or above it are kept
     * @return one cluster number per photo of {@code loaded}, 0, 1, … in order of each cluster's first photo
     */
    int[] cut(int[] loaded, double threshold);

    /**
     * What the clusters were made from, for the report.
     *
     * @return a line for the report, or null when there is nothing to say (every score was there)
     */
    default String basis() {
        return null;
    }

    /**
     * Every score of the run, where these scores keep them all (the matrix output needs them).
     *
     * @return the full similarity matrix, or null when only some scores were kept
     */
    default SimilarityCollector every() {
        return null;
    }
}
