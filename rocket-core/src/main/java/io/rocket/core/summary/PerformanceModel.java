package io.rocket.core.summary;

/**
 * The paper's performance model (§VI-A) and the figures derived from it, defined here once for every scope a
 * summary describes: a single-node run, one node of a cluster run (its own share), and a whole cluster run.
 *
 * <p>Each figure is defined so that its bound holds by construction, from counters of the scope itself:
 * <ul>
 *   <li><b>R</b> = fills ÷ items needed. A fill is an item coming into the scope's memory from outside it: for a
 *   node, an L2 miss (a load, or on a cluster node also a fetch from another node's L2); for a cluster, a load
 *   from storage. Items needed are the distinct items the scope's pairs used. Memory starts empty, so every item
 *   needed is filled at least once: R ≥ 1.</li>
 *   <li><b>R lower bound</b>: split the run into phases of C fills each, C the items the scope can hold at once
 *   (its L2 and L1 slots; for a cluster, all nodes'). The items at hand during a phase are at most the C held when
 *   it began plus the C it filled, so it computes at most d(2C) pairs, d(k) being the most pairs of the run's
 *   {@link PairDensity pair space} among any k items; the first, starting empty, at most d(C). P pairs in ⌈F/C⌉
 *   phases then need F &gt; C (P − d(C)) / d(2C) fills, and R ≥ max(1, C (P − d(C)) / (d(2C) m)) for m items
 *   needed. For the triangle d(k) = k(k − 1)/2, which gives max(1, (P − C(C − 1)/2) / ((2C − 1) m)); for queries
 *   against other references, d(k) = ⌊k/2⌋⌈k/2⌉, which gives about P / (C m).</li>
 *   <li><b>T_min</b> = m_pre · t_pre + P · t_cmp, the device time the scope could not have avoided: the mean
 *   preprocess and compare kernel times, each item needed preprocessed once (m_pre = m, but never more than the
 *   preprocess kernels the scope ran: items fetched from another node or the disk cache arrive preprocessed) and
 *   each successful pair compared once. Since m_pre ≤ the preprocess kernels run and P ≤ the compare kernels run,
 *   T_min ≤ the kernel time the scope's devices spent.</li>
 *   <li><b>system efficiency</b> = T_min ÷ device-seconds, the device-seconds being Σ over the scope's nodes of
 *   devices × the time the node's devices were held (start of the run to its last pair job's end). On one node
 *   that is the paper's (T_min / p) / T (eq. 5). A device's kernels run one at a time, so its kernel time fits in
 *   its held time, and the efficiency is at most 1.</li>
 * </ul>
 * A figure without a defined value (no items needed, no work, no time) is null, and absent from the JSON.
 */
public final class PerformanceModel {
    private PerformanceModel() {
    }

    /**
     * What one scope (a node or a cluster) did, as counted by itself.
     *
     * @param itemsNeeded       distinct items the scope's pairs used (m)
     * @param fills             items that came into the scope's memory from outside it (see the class comment)
     * @param capacity          items the scope can hold at once (C): L2 plus L1 slots, over its nodes
     * @param pairs             pairs the scope computed successfully (P)
     * @param preprocessKernels preprocess kernels run
     * @param preprocessSeconds their total device time
     * @param compareKernels    compare kernels run (duplicates included)
     * @param compareSeconds    their total device time
     * @param deviceSeconds     Σ over nodes of devices × the time the node held them
     * @param density           the run's pair space: the most pairs among any k items
     */
    public record Work(long itemsNeeded, long fills, long capacity, long pairs, long preprocessKernels,
                       double preprocessSeconds, long compareKernels, double compareSeconds,
                       double deviceSeconds, PairDensity density) {
        /**
         * What a scope of a triangle run (every pair of one list) did.
         *
         * @param itemsNeeded       distinct items the scope's pairs used (m)
         * @param fills             items that came into the scope's memory from outside it
         * @param capacity          items the scope can hold at once (C)
         * @param pairs             pairs the scope computed successfully (P)
         * @param preprocessKernels preprocess kernels run
         * @param preprocessSeconds their total device time
         * @param compareKernels    compare kernels run (duplicates included)
         * @param compareSeconds    their total device time
         * @param deviceSeconds     Σ over nodes of devices × the time the node held them
         */
        public Work(long itemsNeeded, long fills, long capacity, long pairs, long preprocessKernels,
                    double preprocessSeconds, long compareKernels, double compareSeconds, double deviceSeconds) {
            this(itemsNeeded, fills, capacity, pairs, preprocessKernels, preprocessSeconds, compareKernels,
                    compareSeconds, deviceSeconds, PairDensity.TRIANGLE);
        }

        /**
         * The same work, done in another pair space.
         *
         * @param space the run's pair space
         * @return this work with {@code density} {@code space}
         */
        public Work in(PairDensity space) {
            return new Work(itemsNeeded, fills, capacity, pairs, preprocessKernels, preprocessSeconds, compareKernels,
                    compareSeconds, deviceSeconds, space);
        }
    }

    /**
     * The figures of one scope; null where undefined.
     *
     * @param reuse            R
     * @param reuseLowerBound  the least R any schedule could reach with the scope's memory
     * @param tMinSeconds      T_min
     * @param systemEfficiency T_min ÷ device-seconds
     */
    public record Figures(Double reuse, Double reuseLowerBound, Double tMinSeconds, Double systemEfficiency) {
    }

    /**
     * The figures of one scope.
     *
     * @param w what the scope did
     * @return R, its lower bound, T_min and the efficiency, each null where undefined (no items needed, no work)
     */
    public static Figures figures(Work w) {
        Double reuse = w.itemsNeeded() == 0 ? null : (double) w.fills() / w.itemsNeeded();
        Double bound = w.itemsNeeded() == 0 || w.capacity() <= 0 ? null
                : reuseLowerBound(w.itemsNeeded(), w.pairs(), w.capacity(), w.density());
        double tPre = w.preprocessKernels() == 0 ? 0 : w.preprocessSeconds() / w.preprocessKernels();
        double tCmp = w.compareKernels() == 0 ? 0 : w.compareSeconds() / w.compareKernels();
        long preprocessed = Math.min(w.itemsNeeded(), w.preprocessKernels());
        double tMin = preprocessed * tPre + w.pairs() * tCmp;
        boolean work = w.pairs() > 0 || preprocessed > 0;
        Double efficiency = !work || w.deviceSeconds() <= 0 ? null : tMin / w.deviceSeconds();
        return new Figures(reuse, bound, work ? tMin : null, efficiency);
    }

    /**
     * Number of pairs i &lt; j among n items.
     *
     * @param n the number of items, at least 0
     * @return {@code n·(n-1)/2}
     */
    public static long pairs(long n) {
        return n * (n - 1) / 2;
    }

    /**
     * The least R any schedule can reach when {@code pairs} pairs of a triangle (every pair of one list) among
     * {@code items} items are computed by a scope that holds at most {@code capacity} items at once (see the class
     * comment): max(1, (P − C(C − 1)/2) / ((2C − 1) m)).
     *
     * @param items    m, the distinct items the pairs use, at least 1
     * @param pairs    P, the pairs computed
     * @param capacity C, the items the scope holds at once, at least 1
     * @return the least R, at least 1
     */
    public static double reuseLowerBound(long items, long pairs, long capacity) {
        return reuseLowerBound(items, pairs, capacity, PairDensity.TRIANGLE);
    }

    /**
     * The least R any schedule can reach when {@code pairs} pairs of a space of the given density among
     * {@code items} items are computed by a scope that holds at most {@code capacity} items at once (see the class
     * comment): max(1, C (P − d(C)) / (d(2C) m)).
     *
     * @param items    m, the distinct items the pairs use, at least 1
     * @param pairs    P, the pairs computed
     * @param capacity C, the items the scope holds at once, at least 1
     * @param density  d, the most pairs of the run's space among any k items
     * @return the least R, at least 1
     */
    public static double reuseLowerBound(long items, long pairs, long capacity, PairDensity density) {
        return reuseLowerBound(items, pairs, capacity, 1, density);
    }

    /**
     * The same bound for a level of {@code caches} caches of {@code capacity} items each that share the pairs (the
     * devices' L1s, each filled by copies from L2): a device computing P_d pairs needs at least
     * C (P_d − d(C)) / d(2C) fills, linear in P_d, so however the pairs are split the level needs
     * C (P − caches · d(C)) / d(2C), and R_L1 ≥ max(1, that / m).
     *
     * @param items    m, the distinct items the pairs use, at least 1
     * @param pairs    P, the pairs computed on the level's devices
     * @param capacity C, the items one cache of the level holds at once, at least 1
     * @param caches   the caches of the level, at least 1
     * @param density  d, the most pairs of the run's space among any k items
     * @return the least fills per item needed, at least 1
     */
    public static double reuseLowerBound(long items, long pairs, long capacity, int caches, PairDensity density) {
        double perPhase = density.mostPairs(2 * capacity);
        if (perPhase <= 0) {
            return 1.0;
        }
        double fills = capacity * (pairs - caches * (double) density.mostPairs(capacity)) / perPhase;
        return Math.max(1.0, fills / items);
    }
}
