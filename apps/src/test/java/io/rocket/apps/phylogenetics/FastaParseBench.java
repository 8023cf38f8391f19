package io.rocket.apps.phylogenetics;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * Times {@link FastaParser} against {@link PreviousFastaParser} side by side in one JVM, for docs/benchmarks.md: a
 * generated proteome ({@link PhyloGenerator}, 60 residues a line) read from a direct buffer as the application's
 * parse reads its input, gzip (as generated) and plain, rounds alternating between the two parsers. Run after
 * {@code mvn -pl apps test-compile}: {@code java -cp apps/target/classes:apps/target/test-classes:<test classpath>
 * io.rocket.apps.phylogenetics.FastaParseBench [PROTEINS [ROUNDS [before|after]]]}. With {@code before} or
 * {@code after} it times instead the first ROUNDS parses of the gzip file in this JVM with one parser (CVTree
 * convention), as a run's parses mostly are (a few proteomes a thread): run it in a fresh JVM for each.
 */
public final class FastaParseBench {

    private FastaParseBench() {
    }

    /**
     * Prints the median time of each parser on each file and their ratio.
     *
     * @param args proteins in the proteome (default 4400: about 1.3 M residues), timed rounds (default 15), and
     *             {@code before} or {@code after} for the first parses of the one parser
     */
    public static void main(String[] args) throws IOException {
        int proteins = args.length > 0 ? Integer.parseInt(args[0]) : 4400;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        Path dir = Files.createTempDirectory("fasta-bench");
        PhyloGenerator.Result generated = PhyloGenerator.generate(dir, 2, 0.5, proteins, 1);
        byte[] gz = Files.readAllBytes(generated.proteomes().get(0));
        byte[] plain;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(generated.proteomes().get(0)))) {
            plain = in.readAllBytes();
        }
        for (Path p : generated.proteomes()) {
            Files.delete(p);
        }
        Files.delete(generated.treeFile());
        Files.delete(dir);
        if (args.length > 2) {
            firstParses(args[2], gz, plain.length, rounds);
            return;
        }
        for (Convention convention : new Convention[] {Convention.CVTREE, Convention.CVTREE5}) {
            time("gzip  " + convention, gz, plain.length, convention, rounds);
            time("plain " + convention, plain, plain.length, convention, rounds);
        }
    }

    private static void time(String label, byte[] file, int textBytes, Convention convention, int rounds) {
        ByteBuffer input = ByteBuffer.allocateDirect(file.length).put(file).flip();
        ByteBuffer out = ByteBuffer.allocateDirect((int) FastaParser.maxParsedBytes(textBytes, convention))
                .order(ByteOrder.LITTLE_ENDIAN);
        FastaParser newParser = new FastaParser(convention);
        PreviousFastaParser oldParser = new PreviousFastaParser(convention);
        int calls = Math.max(1, (int) (200_000_000L / Math.max(1, textBytes))); // about 200 MB of text a round
        long[] tNow = new long[rounds];
        long[] tBefore = new long[rounds];
        int sink = 0;
        for (int r = -3; r < rounds; r++) { // 3 rounds of warm-up
            long t0 = System.nanoTime();
            for (int c = 0; c < calls; c++) {
                sink += oldParser.parse("b.faa", input, out);
            }
            long t1 = System.nanoTime();
            for (int c = 0; c < calls; c++) {
                sink += newParser.parse("b.faa", input, out);
            }
            long t2 = System.nanoTime();
            if (r >= 0) {
                tBefore[r] = (t1 - t0) / calls;
                tNow[r] = (t2 - t1) / calls;
            }
        }
        double before = median(tBefore) / 1e6;
        double after = median(tNow) / 1e6;
        System.out.printf(Locale.ROOT, "%s  %,d text bytes (%,d file bytes), %d residues: before %.3f ms (%.0f MB/s),"
                        + " after %.3f ms (%.0f MB/s), ratio %.2f  [%d]%n", label, textBytes, file.length,
                FastaParser.residueCount(out), before, textBytes / before / 1e3, after, textBytes / after / 1e3,
                before / after, sink & 1);
    }

    private static void firstParses(String which, byte[] file, int textBytes, int parses) {
        ByteBuffer input = ByteBuffer.allocateDirect(file.length).put(file).flip();
        ByteBuffer out = ByteBuffer.allocateDirect((int) FastaParser.maxParsedBytes(textBytes))
                .order(ByteOrder.LITTLE_ENDIAN);
        boolean before = which.equals("before");
        FastaParser newParser = new FastaParser();
        PreviousFastaParser oldParser = new PreviousFastaParser();
        long[] t = new long[parses];
        for (int k = 0; k < parses; k++) {
            long t0 = System.nanoTime();
            if (before) {
                oldParser.parse("b.faa.gz", input, out);
            } else {
                newParser.parse("b.faa.gz", input, out);
            }
            t[k] = System.nanoTime() - t0;
        }
        double total = 0;
        for (long v : t) {
            total += v;
        }
        System.out.printf(Locale.ROOT, "gzip first parses, %s: first %.3f ms, mean of %d %.3f ms, last %.3f ms%n",
                which, t[0] / 1e6, parses, total / parses / 1e6, t[parses - 1] / 1e6);
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
