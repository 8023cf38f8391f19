package io.rocket.testkit;

/**
 * The standard splitmix64 mixing function (add the golden gamma, two xor-shift-multiply rounds, final xor-shift):
 * item values v(i) = splitmix64(seed + i) and the deterministic per-item and per-pair cost draws come from it.
 */
public final class SplitMix64 {
    private SplitMix64() {
    }

    public static long mix(long x) {
        long z = x + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A uniform double in [0, 1) from a hash. */
    public static double unit(long hash) {
        return (hash >>> 11) * 0x1.0p-53;
    }
}
