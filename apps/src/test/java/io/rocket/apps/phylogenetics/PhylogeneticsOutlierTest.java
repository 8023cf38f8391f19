package io.rocket.apps.phylogenetics;

import io.rocket.apps.Cli;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import io.rocket.core.device.DirectHostMemory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One valid proteome far larger than the rest (a small gzip file of one long, repetitive protein) must not size every
 * buffer of the run: it is left out of the sizes and fails alone, naming the limit and {@code --max-residues}, and
 * every other pair is computed as in a run without it.
 */
class PhylogeneticsOutlierTest {

    /** Residues of the outlier: above the 16 MiB floor, some 1,500 times the generated proteomes. */
    private static final int HUGE_RESIDUES = 18_000_000;

    @TempDir
    Path dir;

    @Test
    void run_oneHugeValidProteome_failsAloneAndTheOthersAreSizedWithoutIt() throws IOException {
        Path data = dir.resolve("data");
        PhyloGenerator.Result generated = PhyloGenerator.generate(data, 20, 0.5, 40, 11);
        Files.delete(generated.treeFile());
        Path good = Files.createDirectories(dir.resolve("good"));
        for (Path p : generated.proteomes()) {
            Files.copy(p, good.resolve(p.getFileName()));
        }
        Path huge = data.resolve("taxon21.faa.gz");
        writeRepetitiveProteome(huge, HUGE_RESIDUES);
        assertThat(Files.size(huge)).isLessThan(200_000); // gzip keeps the repetition small
        long hugeText = TextSize.of(huge);

        Path pairs = dir.resolve("pairs.tsv");
        Path errors = dir.resolve("errors.tsv");
        Cli.Result r = Cli.run("phylogenetics", data.toString(), "--output", pairs.toString(), "--errors",
                errors.toString());

        assertThat(r.code()).as(r.both()).isEqualTo(3);
        SlotSizes sizes = SlotSizes.measure(List.of(Files.list(good).sorted().toArray(Path[]::new)), 5, null, null);
        assertThat(r.out()).as(r.both())
                .contains("phylogenetics: 21 proteomes in ")
                .contains("buffers for up to " + sizes.residues() + " residues")
                .contains("phylogenetics: 21 items, 190 pairs (20 errors)")
                .contains(String.format(java.util.Locale.ROOT, "taxon21.faa.gz: the parsed proteome needs %d bytes "
                        + "but the staging buffer holds %d (sized for %,d residues, the largest of the proteomes "
                        + "that are not outliers: its %,d bytes of text are more than 4 times the others'",
                        8 + HUGE_RESIDUES + 1, sizes.inputBytes(), sizes.residues(), hugeText))
                .contains("rerun with --max-residues " + (HUGE_RESIDUES + 1) + " or more")
                .doesNotContain("direct memory");
        assertThat(r.err()).as(r.both()).contains(String.format(java.util.Locale.ROOT,
                "phylogenetics: note: taxon21.faa.gz (%,d residues) is far larger than the others; buffers are sized "
                        + "for %,d residues, so it will fail; give --max-residues %d to include it", hugeText,
                sizes.residues(), hugeText));
        List<String> errorLines = Files.readAllLines(errors);
        assertThat(errorLines).hasSize(1 + 20);
        assertThat(errorLines.subList(1, errorLines.size())).allMatch(line -> line.contains("taxon21"));

        Path alone = dir.resolve("alone.tsv");
        Cli.Result without = Cli.run("phylogenetics", good.toString(), "--output", alone.toString());
        assertThat(without.code()).as(without.both()).isZero();
        assertThat(without.out()).contains("buffers for up to " + sizes.residues() + " residues");
        assertThat(Files.readAllLines(pairs)).hasSize(1 + 190)
                .containsExactlyInAnyOrderElementsOf(Files.readAllLines(alone));
    }

    /**
     * Buffers that the JVM's direct memory cannot hold (a --max-residues far beyond it) stop the run once, before it
     * starts, instead of failing every good proteome with an allocation message.
     */
    @Test
    void run_maxResiduesBeyondDirectMemory_refusedOnceUpFront() throws IOException {
        long parsed = FastaParser.maxParsedBytesForResidues(1_070_000_000L, Convention.CVTREE);
        // at least 2 + 1 staging buffers on the host and 2 on the cpu device: skip where direct memory holds them
        Assumptions.assumeTrue(DirectHostMemory.maxDirectBytes() < 5 * parsed);
        PhyloGenerator.generate(dir.resolve("data"), 3, 0.5, 10, 4);

        Cli.Result r = Cli.run("phylogenetics", dir.resolve("data").toString(), "--max-residues", "1070000000");

        assertThat(r.code()).as(r.both()).isEqualTo(1);
        assertThat(r.err()).as(r.both()).containsOnlyOnce("phylogenetics: the run's buffers need at least")
                .contains("staging buffers of 2140.0 MB for parsed items")
                .contains("this JVM may allocate; raise -XX:MaxDirectMemorySize");
        assertThat(r.both()).doesNotContain("out of direct memory").doesNotContain("taxon01");
    }

    @Test
    void outlierLimit_percentileRatioAndFloor() {
        long mib = 1L << 20;
        // fewer than two sizes: nothing to compare with
        assertThat(SlotSizes.outlierLimit(new long[] {500 * mib})).isEqualTo(Long.MAX_VALUE);
        // small proteomes: the 16 MiB floor keeps anything whose buffers are cheap
        assertThat(SlotSizes.outlierLimit(new long[] {1000, 2000, 3000})).isEqualTo(SlotSizes.OUTLIER_MIN_TEXT);
        // two sizes: the reference is the smaller one
        assertThat(SlotSizes.outlierLimit(new long[] {10 * mib, 200 * mib})).isEqualTo(40 * mib);
        // 20 ordinary sizes and one outlier: the 95th percentile (rank 20 of 21) is the largest ordinary size
        long[] sizes = new long[21];
        for (int i = 0; i < 20; i++) {
            sizes[i] = (i + 1) * mib;
        }
        sizes[20] = 200 * mib;
        assertThat(SlotSizes.outlierLimit(sizes)).isEqualTo(80 * mib);
    }

    @Test
    void measure_withMaxResidues_hasNoOutliers() throws IOException {
        Path data = dir.resolve("data");
        PhyloGenerator.Result generated = PhyloGenerator.generate(data, 3, 0.5, 10, 2);
        Path huge = data.resolve("huge.faa.gz");
        writeRepetitiveProteome(huge, HUGE_RESIDUES);
        List<Path> files = new java.util.ArrayList<>(generated.proteomes());
        files.add(huge);

        SlotSizes measured = SlotSizes.measure(files, 5, null, null);
        assertThat(measured.outliers()).extracting(SlotSizes.Outlier::file).containsExactly(huge);
        assertThat(measured.residues()).isLessThan(100_000);
        // the read buffers still hold the small compressed file, so that the parser reports it
        assertThat(measured.fileBytes()).isEqualTo(Files.size(huge));

        SlotSizes given = SlotSizes.measure(files, 5, (long) HUGE_RESIDUES, null);
        assertThat(given.outliers()).isEmpty();
        assertThat(given.residues()).isEqualTo(HUGE_RESIDUES);
    }

    /** A gzip proteome of one protein of {@code residues} residues, a 20-residue motif repeated. */
    private static void writeRepetitiveProteome(Path file, int residues) throws IOException {
        byte[] motif = "ACDEFGHIKLMNPQRSTVWY".getBytes(StandardCharsets.US_ASCII);
        byte[] line = new byte[60 * 1000 + 1000];
        int n = 0;
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file), 1 << 16)) {
            out.write(">huge one long repetitive protein\n".getBytes(StandardCharsets.US_ASCII));
            int written = 0;
            while (written < residues) {
                n = 0;
                for (int row = 0; row < 1000 && written < residues; row++) {
                    int len = Math.min(60, residues - written);
                    for (int c = 0; c < len; c++) {
                        line[n++] = motif[(written + c) % motif.length];
                    }
                    line[n++] = '\n';
                    written += len;
                }
                out.write(line, 0, n);
            }
        }
    }
}
