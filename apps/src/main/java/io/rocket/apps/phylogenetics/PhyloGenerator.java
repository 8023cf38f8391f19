package io.rocket.apps.phylogenetics;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;

/**
 * Synthetic proteomes with a known tree (apps.md §2): a seeded random Yule tree of T taxa scaled to root-to-tip
 * depth d; a root proteome of P proteins with lengths ~ Gamma(2, 150) clipped to [50, 2000] and residues drawn from
 * the Robinson–Robinson composition; evolution down the tree with F81 and Gamma(0.7) site rates
 * ({@link ProteomeEvolver}). Writes {@code <taxon>.faa.gz} per leaf (60 residues a line, headers
 * {@code >taxon01_p00001}) and {@code true-tree.nwk}. The same options and seed give byte-identical files.
 */
public final class PhyloGenerator {

    /** Name of the true-tree file in the output directory. */
    public static final String TRUE_TREE = "true-tree.nwk";

    /**
     * Generator settings.
     *
     * @param taxa number of leaves T (≥ 2)
     * @param depth root-to-tip depth d in substitutions per site
     * @param proteins proteins per proteome P (apps.md default 300)
     * @param seed random seed
     */
    public record Options(int taxa, double depth, int proteins, long seed) {
        /** Default protein count. */
        public static final int DEFAULT_PROTEINS = 300;
        /** Gamma shape of the site rates. */
        public static final double RATE_SHAPE = 0.7;

        public Options {
            if (taxa < 2 || !(depth > 0) || proteins < 1) {
                throw new IllegalArgumentException("need taxa ≥ 2, depth > 0, proteins ≥ 1; got " + taxa + ", "
                        + depth + ", " + proteins);
            }
        }
    }

    /** What was written: the proteome files (in taxon order), the true-tree file and the tree itself. */
    public record Result(List<Path> proteomes, Path treeFile, TreeNode trueTree) {
    }

    private static final int LINE = 60;

    private PhyloGenerator() {
    }

    /** Generates with {@code proteins} proteins per proteome into {@code outDir} (created if missing). */
    public static Result generate(Path outDir, int taxa, double depth, int proteins, long seed) throws IOException {
        return generate(outDir, new Options(taxa, depth, proteins, seed));
    }

    /** Generates into {@code outDir} (created if missing). */
    public static Result generate(Path outDir, Options options) throws IOException {
        SplittableRandom random = new SplittableRandom(options.seed());
        TreeNode tree = YuleTree.generate(options.taxa(), options.depth(), random);
        int[] lengths = proteinLengths(options.proteins(), random);
        int sites = 0;
        for (int length : lengths) {
            sites += length;
        }
        byte[] root = ProteomeEvolver.randomRoot(sites, random);
        ProteomeEvolver evolver = new ProteomeEvolver(sites, Options.RATE_SHAPE, random);
        Map<String, byte[]> leaves = evolver.evolveTree(tree, root, random);

        Files.createDirectories(outDir);
        List<Path> files = new ArrayList<>();
        List<String> names = new ArrayList<>(leaves.keySet());
        names.sort(null);
        for (String name : names) {
            Path file = outDir.resolve(name + ".faa.gz");
            writeFasta(file, name, leaves.get(name), lengths);
            files.add(file);
        }
        Path treeFile = outDir.resolve(TRUE_TREE);
        Files.writeString(treeFile, NewickWriter.toNewick(tree) + "\n", StandardCharsets.UTF_8);
        return new Result(files, treeFile, tree);
    }

    /** Protein lengths ~ Gamma(shape 2, scale 150), rounded and clipped to [50, 2000]. */
    static int[] proteinLengths(int proteins, SplittableRandom random) {
        int[] lengths = new int[proteins];
        for (int p = 0; p < proteins; p++) {
            long length = Math.round(RandomVariates.gamma(random, 2.0, 150.0));
            lengths[p] = (int) Math.max(50, Math.min(2000, length));
        }
        return lengths;
    }

    private static void writeFasta(Path file, String taxon, byte[] residues, int[] lengths) throws IOException {
        byte[] line = new byte[LINE + 1];
        line[LINE] = '\n';
        try (OutputStream out = new GZIPOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16),
                1 << 16)) {
            int site = 0;
            for (int p = 0; p < lengths.length; p++) {
                out.write(String.format(">%s_p%05d\n", taxon, p + 1).getBytes(StandardCharsets.US_ASCII));
                int end = site + lengths[p];
                while (site < end) {
                    int n = Math.min(LINE, end - site);
                    for (int i = 0; i < n; i++) {
                        line[i] = (byte) Alphabet.letter(residues[site + i]);
                    }
                    line[n] = '\n';
                    out.write(line, 0, n + 1);
                    site += n;
                }
            }
        }
    }
}
