package io.rocket.core.summary;

/**
 * The paper's performance model (§VI-A): with every item loaded once and the devices never idle, a run takes at
 * least {@code T_min = n·t_pre + C(n,2)·t_cmp} of device time; system efficiency is {@code (T_min / p) / T} on
 * {@code p} devices, and R = loads / n measures data reuse (1 is perfect).
 */
public final class PerformanceModel {
    private PerformanceModel() {
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
     * Lower bound on total device time, in seconds.
     *
     * @param n the number of items, at least 0
     * @param tPreprocessSeconds the mean device time of one preprocess step, in seconds
     * @param tCompareSeconds the mean device time of one compare step, in seconds
     * @return {@code T_min = n·t_pre + C(n,2)·t_cmp}, in seconds of device time summed over devices
     */
    public static double tMinSeconds(long n, double tPreprocessSeconds, double tCompareSeconds) {
        return n * tPreprocessSeconds + pairs(n) * tCompareSeconds;
    }

    /**
     * (T_min / p) / T, or 0 when undefined.
     *
     * @param tMinSeconds the lower bound on device time from {@link #tMinSeconds}, in seconds
     * @param devices the number of devices {@code p} in the run (all nodes)
     * @param wallSeconds the run's wall time {@code T}, in seconds
     * @return the system efficiency, 1 for a perfect run (it may exceed 1 when the mean step times overstate the
     *         work); 0 when {@code devices} or {@code wallSeconds} is not positive
     */
    public static double systemEfficiency(double tMinSeconds, int devices, double wallSeconds) {
        return devices <= 0 || wallSeconds <= 0 ? 0 : tMinSeconds / devices / wallSeconds;
    }

    /**
     * The least R any schedule can reach with a cache of {@code slots} items: while C items are loaded, at most 2C
     * items are at hand, so at most about 2C² pairs are computed; the n²/2 pairs then need at least n²/(4C) loads,
     * R ≥ n/(4C) = 1/(4f) for the cache fraction f = C/n, and never less than 1 (every item is loaded once).
     * 0 when undefined.
     *
     * @param n the number of items, at least 0
     * @param slots the number of items the cache holds at once ({@code C})
     * @return the least reuse factor R, at least 1; 0 when {@code n} is 0 or {@code slots} is not positive
     */
    public static double reuseLowerBound(long n, long slots) {
        return n == 0 || slots <= 0 ? 0 : Math.max(1.0, n / (4.0 * slots));
    }

    /**
     * Loads per item.
     *
     * @param loads the number of item loads in the run, counting reloads after eviction
     * @param n the number of items, at least 0
     * @return the reuse factor R = loads / n (1 is perfect), or 0 when {@code n} is 0
     */
    public static double reuseFactor(long loads, long n) {
        return n == 0 ? 0 : (double) loads / n;
    }
}
