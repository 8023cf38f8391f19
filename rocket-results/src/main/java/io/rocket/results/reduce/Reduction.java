package io.rocket.results.reduce;

import io.rocket.core.UsageException;
import io.rocket.core.RocketException;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What a run keeps of its results, decided on the node that computed each pair: pairs whose score lies in the band
 * {@code [minScore, maxScore]}, and, with {@code topK > 0}, of those only the pairs that are among the K best
 * partners of either of their items. A pair's score comes from {@code Application.score}; which scores are better
 * from {@code Application.smallerIsBetter}. Ties between equal scores go to the partner with the smaller index, so
 * the kept set is the same whatever order the pairs are computed in.
 *
 * @param topK     the best partners to keep per item, or 0 to keep every pair in the band
 * @param minScore the smallest score kept ({@code -Infinity} for no lower bound)
 * @param maxScore the largest score kept ({@code +Infinity} for no upper bound)
 */
public record Reduction(int topK, double minScore, double maxScore) {

    /**
     * Checks the settings.
     *
     * @param topK     the best partners to keep per item, or 0 for all
     * @param minScore the smallest score kept
     * @param maxScore the largest score kept
     * @throws RocketException when {@code topK} is negative, a bound is NaN, or the band is empty
     */
    public Reduction {
        if (topK < 0) {
            throw new UsageException("--top-k must be at least 1, got " + topK);
        }
        if (Double.isNaN(minScore) || Double.isNaN(maxScore)) {
            throw new UsageException("--min-score and --max-score must be numbers, got NaN");
        }
        if (minScore > maxScore) {
            throw new UsageException("--min-score " + minScore + " is above --max-score " + maxScore
                    + ": no pair would be kept");
        }
    }

    /**
     * The reduction the command-line options ask for; null where none is given.
     *
     * @param topK     {@code --top-k}, or null
     * @param minScore {@code --min-score}, or null
     * @param maxScore {@code --max-score}, or null
     * @return the reduction, or null when all three are null (every pair is kept as it comes)
     * @throws RocketException when {@code topK} is below 1 or the bounds are unusable (one line naming the option)
     */
    public static Reduction of(Integer topK, Double minScore, Double maxScore) {
        if (topK == null && minScore == null && maxScore == null) {
            return null;
        }
        if (topK != null && topK < 1) {
            throw new UsageException("--top-k must be at least 1, got " + topK);
        }
        return new Reduction(topK == null ? 0 : topK, minScore == null ? Double.NEGATIVE_INFINITY : minScore,
                maxScore == null ? Double.POSITIVE_INFINITY : maxScore);
    }

    /**
     * Whether pairs are ranked per item.
     *
     * @return true when {@link #topK} is above 0
     */
    public boolean hasTopK() {
        return topK > 0;
    }

    /**
     * Whether a score lies in the band; NaN never does.
     *
     * @param score a pair's score
     * @return true when {@code minScore <= score <= maxScore}
     */
    public boolean inBand(double score) {
        return score >= minScore && score <= maxScore;
    }

    /**
     * The settings as summary fields: {@code top_k}, and {@code min_score} and {@code max_score} where set.
     *
     * @return a new, ordered map of field name to value
     */
    public Map<String, Object> describe() {
        Map<String, Object> fields = new LinkedHashMap<>();
        if (hasTopK()) {
            fields.put("top_k", topK);
        }
        if (minScore != Double.NEGATIVE_INFINITY) {
            fields.put("min_score", minScore);
        }
        if (maxScore != Double.POSITIVE_INFINITY) {
            fields.put("max_score", maxScore);
        }
        return fields;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "top-k %d, scores in [%s, %s]", topK, minScore, maxScore);
    }
}
