package io.rocket.apps.phylogenetics;

import java.util.random.RandomGenerator;

/**
 * Background amino-acid frequencies of Robinson and Robinson (1991, PNAS 88:8880), the composition NCBI BLAST uses
 * for its statistics, in {@link Alphabet} code order. The synthetic proteomes draw root residues from it and it is
 * the stationary distribution of their substitution model.
 */
public final class AminoAcidFrequencies {

    /** Frequencies per thousand residues, in order A C D E F G H I K L M N P Q R S T V W Y (sum 1000). */
    private static final double[] PER_THOUSAND = {
        78.05, 19.25, 53.64, 62.95, 38.56, 73.77, 21.99, 51.42, 57.44, 90.19,
        22.43, 44.87, 52.03, 42.64, 51.29, 71.20, 58.41, 64.41, 13.30, 32.16,
    };

    private static final double[] FREQUENCIES = new double[Alphabet.SIZE];
    private static final double[] CUMULATIVE = new double[Alphabet.SIZE];

    static {
        double total = 0;
        for (double f : PER_THOUSAND) {
            total += f;
        }
        double running = 0;
        for (int i = 0; i < Alphabet.SIZE; i++) {
            FREQUENCIES[i] = PER_THOUSAND[i] / total;
            running += FREQUENCIES[i];
            CUMULATIVE[i] = running;
        }
        CUMULATIVE[Alphabet.SIZE - 1] = 1.0;
    }

    private AminoAcidFrequencies() {
    }

    /** Frequency of residue code {@code code} (the 20 values sum to 1). */
    public static double frequency(int code) {
        return FREQUENCIES[code];
    }

    /** Σ π², the chance that two independent draws agree (used to scale the F81 model to substitutions/site). */
    public static double homozygosity() {
        double sum = 0;
        for (double f : FREQUENCIES) {
            sum += f * f;
        }
        return sum;
    }

    /** A residue code drawn from the frequencies. */
    public static byte sample(RandomGenerator random) {
        double u = random.nextDouble();
        for (int i = 0; i < Alphabet.SIZE - 1; i++) {
            if (u < CUMULATIVE[i]) {
                return (byte) i;
            }
        }
        return (byte) (Alphabet.SIZE - 1);
    }
}
