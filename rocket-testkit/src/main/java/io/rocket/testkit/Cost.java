package io.rocket.testkit;

import io.rocket.core.RocketException;

import java.util.Locale;

/**
 * A modelled cost in milliseconds: constant ({@code 2}), normal ({@code 2±0.5}, also {@code 2+-0.5}) truncated at
 * zero, or log-normal for heavy tails ({@code lognormal:2±3}, mean and standard deviation of the cost itself).
 * Draws are a pure function of a hash, so every run with the same seed models the same costs.
 *
 * @param meanMillis mean
 * @param sdMillis   standard deviation
 * @param heavyTail  log-normal instead of normal
 */
public record Cost(double meanMillis, double sdMillis, boolean heavyTail) {

    public static final Cost ZERO = new Cost(0, 0, false);

    /** Parses a cost option value. */
    public static Cost parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        boolean heavy = s.startsWith("lognormal:");
        if (heavy) {
            s = s.substring("lognormal:".length());
        }
        String[] parts = s.split("±|\\+-|\\+/-", -1);
        try {
            double mean = Double.parseDouble(parts[0].trim());
            double sd = parts.length > 1 ? Double.parseDouble(parts[1].trim()) : 0;
            if (parts.length > 2 || mean < 0 || sd < 0 || Double.isNaN(mean) || Double.isNaN(sd)
                    || Double.isInfinite(mean) || Double.isInfinite(sd)) {
                throw new NumberFormatException();
            }
            return new Cost(mean, sd, heavy);
        } catch (NumberFormatException e) {
            throw new RocketException("bad cost '" + text + "': expected MEAN or MEAN±SD in milliseconds, "
                    + "non-negative (e.g. 2, 1.1±0.01, lognormal:564±348)");
        }
    }

    /** The cost in nanoseconds for a draw keyed by {@code hash}. */
    public long nanos(long hash) {
        if (sdMillis == 0) {
            return (long) (meanMillis * 1e6);
        }
        double u1 = Math.max(SplitMix64.unit(hash), 1e-300);
        double u2 = SplitMix64.unit(SplitMix64.mix(hash));
        double z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
        double millis;
        if (heavyTail) {
            double sigma2 = Math.log(1 + (sdMillis * sdMillis) / (meanMillis * meanMillis));
            millis = meanMillis * Math.exp(Math.sqrt(sigma2) * z - sigma2 / 2);
        } else {
            millis = Math.max(0, meanMillis + sdMillis * z);
        }
        return (long) (millis * 1e6);
    }

    @Override
    public String toString() {
        String body = sdMillis == 0 ? fmt(meanMillis) : fmt(meanMillis) + "±" + fmt(sdMillis);
        return heavyTail ? "lognormal:" + body : body;
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
