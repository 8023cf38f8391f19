package io.rocket.apps.cuda;

import io.rocket.testkit.Gpu;
import io.rocket.apps.Cli;
import io.rocket.apps.phylogenetics.CompositionVector;
import io.rocket.apps.phylogenetics.CompositionVectorBuilder;
import io.rocket.apps.phylogenetics.CvDistance;
import io.rocket.apps.phylogenetics.CvTreeReference;
import io.rocket.apps.phylogenetics.Cvtree5Reference;
import io.rocket.apps.phylogenetics.CvWorkspace;
import io.rocket.apps.phylogenetics.FastaParser;
import io.rocket.apps.phylogenetics.NewickParser;
import io.rocket.apps.phylogenetics.PhyloGenerator;
import io.rocket.apps.phylogenetics.PhylogeneticsApp;
import io.rocket.apps.phylogenetics.RobinsonFoulds;
import io.rocket.apps.phylogenetics.SlotSizes;
import io.rocket.apps.phylogenetics.TaxonLabels;
import io.rocket.apps.phylogenetics.TreeNode;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.Kernels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The phylogenetics cuda kernels against the cpu kernels: the same entries (keys identical, values within 1e-5: a(s)
 * is evaluated in the same order, only the norm's summation order differs) and every pair's distance within 1e-6 of
 * the cpu's and of CVTree's ({@link CvTreeReference}), for K = 3..7 (K = 7 counts K-strings in a hash table, the
 * others in dense tables); failures as on the cpu; and the launcher on {@code --device cuda} giving the cpu's (and
 * CVTree's) distances and tree.
 */
@Tag("gpu")
class PhylogeneticsCudaGpuTest {
    private static final double TOLERANCE = 1e-5;
    /** Distances: the cpu's are CVTree's within float storage (1e-7); the goal is CVTree's within 1e-6. */
    private static final double DISTANCE_TOLERANCE = 1e-6;

    @TempDir
    Path dir;

    @BeforeEach
    void gpu() {
        Gpu.assumePresent();
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 5, 6, 7})
    void vectorsAndDistances_matchCpuKernels(int k) throws Exception {
        PhyloGenerator.Result data = PhyloGenerator.generate(dir.resolve("data"), 5, 0.5, 120, 3);
        List<Path> files = data.proteomes();
        SlotSizes sizes = SlotSizes.measure(files, k, null, null);
        PhylogeneticsApp app = new PhylogeneticsApp(sizes);
        CompositionVectorBuilder builder = new CompositionVectorBuilder(k);
        List<ByteBuffer> cpuVectors = new ArrayList<>();
        List<DeviceBuffer> gpuVectors = new ArrayList<>();
        try (GpuKernelRig rig = new GpuKernelRig()) {
            Kernels<Path> kernels = app.kernels(DeviceKind.CUDA);
            for (Path file : files) {
                ByteBuffer parsed = parse(file, sizes);
                ByteBuffer cpu = ByteBuffer.allocate((int) sizes.itemBytes()).order(ByteOrder.LITTLE_ENDIAN);
                int cpuBytes = builder.build(file.toString(), parsed, cpu, new CvWorkspace());
                cpu.limit(cpuBytes);
                cpuVectors.add(cpu);

                DeviceBuffer staged = rig.upload(parsed, sizes.inputBytes());
                DeviceBuffer slot = rig.device.allocate(sizes.itemBytes());
                rig.context.begin();
                long gpuBytes = kernels.preprocess(file, staged, slot, rig.context);
                rig.context.end();
                assertThat(gpuBytes).as("%s: item bytes", file.getFileName()).isEqualTo(cpuBytes);
                slot.length(gpuBytes); // as the runtime sets it: the compare's grid follows the item's entries
                ByteBuffer gpu = rig.download(slot, gpuBytes);
                int count = CompositionVector.count(cpu);
                assertThat(CompositionVector.count(gpu)).isEqualTo(count);
                assertThat(CompositionVector.k(gpu)).isEqualTo(k);
                double worst = 0;
                for (int e = 0; e < count; e++) {
                    assertThat(CompositionVector.key(gpu, e)).as("key %d", e).isEqualTo(CompositionVector.key(cpu, e));
                    worst = Math.max(worst, Math.abs(CompositionVector.value(gpu, e) - CompositionVector.value(cpu, e)));
                }
                assertThat(worst).as("%s: largest value difference", file.getFileName()).isLessThan(TOLERANCE);
                gpuVectors.add(slot);
            }
            List<Map<String, Double>> reference = new ArrayList<>();
            for (Path file : files) {
                reference.add(CvTreeReference.vector(CvTreeReference.proteins(CvTreeReference.read(file)), k));
            }
            DeviceBuffer result = rig.device.allocate(CvDistance.RESULT_BYTES);
            // The tile path: every ordered pair in one compareTile, each pair summed in the blocks of its own
            // launch, so each distance must be the per-pair path's to the bit.
            int[] pairs = RigTile.allOrderedPairs(files.size());
            double[] tiled = new RigTile(rig, gpuVectors, pairs, 2 * CvDistance.RESULT_BYTES).compare(rig, kernels);
            for (int i = 0; i < files.size(); i++) {
                for (int j = 0; j < files.size(); j++) {
                    double expected = CvDistance.distance(cpuVectors.get(i), cpuVectors.get(j));
                    double cvtree = i == j ? 0.0 : CvTreeReference.distance(reference.get(i), reference.get(j));
                    rig.context.begin();
                    kernels.compare(files.get(i), gpuVectors.get(i), files.get(j), gpuVectors.get(j), result,
                            rig.context);
                    rig.context.end();
                    double actual = rig.download(result, 8).getDouble(0);
                    assertThat(actual).as("distance (%d, %d) at K = %d", i, j, k)
                            .isCloseTo(expected, org.assertj.core.data.Offset.offset(DISTANCE_TOLERANCE))
                            .isCloseTo(cvtree, org.assertj.core.data.Offset.offset(DISTANCE_TOLERANCE));
                    assertThat(tiled[i * files.size() + j]).as("tile distance (%d, %d) at K = %d", i, j, k)
                            .isEqualTo(actual);
                }
            }
        }
    }

    @Test
    void launcherOnCuda_sameDistancesAndTreeAsCpu() throws IOException {
        PhyloGenerator.Result data = PhyloGenerator.generate(dir.resolve("data"), 12, 0.5, 300, 1);
        Map<String, Double> cpu = run("cpu", "cpu");
        Map<String, Double> cuda = run("cuda", "cuda");
        assertThat(cuda.keySet()).isEqualTo(cpu.keySet()).hasSize(66);
        Map<String, Map<String, Double>> reference = new HashMap<>();
        for (Path file : data.proteomes()) {
            reference.put(TaxonLabels.fromPath(file),
                    CvTreeReference.vector(CvTreeReference.proteins(CvTreeReference.read(file)), 5));
        }
        for (Map.Entry<String, Double> e : cpu.entrySet()) {
            String[] taxa = e.getKey().split(" ");
            double cvtree = CvTreeReference.distance(reference.get(taxa[0]), reference.get(taxa[1]));
            assertThat(cuda.get(e.getKey())).as(e.getKey())
                    .isCloseTo(e.getValue(), org.assertj.core.data.Offset.offset(DISTANCE_TOLERANCE))
                    .isCloseTo(cvtree, org.assertj.core.data.Offset.offset(DISTANCE_TOLERANCE));
        }
        TreeNode cpuTree = NewickParser.parse(Files.readString(dir.resolve("cpu.nwk")));
        TreeNode cudaTree = NewickParser.parse(Files.readString(dir.resolve("cuda.nwk")));
        assertThat(RobinsonFoulds.distance(cudaTree, cpuTree)).isZero();
        assertThat(RobinsonFoulds.distance(cudaTree, data.trueTree())).isZero();
    }

    /**
     * {@code --convention cvtree5} on cuda: the parser writes every protein twice, so the kernels count CVTree 5's
     * seam strings with no change of their own; distances as the cpu's and CVTree 5's, with dense (K = 5) and hashed
     * (K = 7) K-string counts.
     */
    @ParameterizedTest
    @ValueSource(ints = {5, 7})
    void launcherOnCuda_cvtree5_sameDistancesAsCpuAndCvtree5(int k) throws IOException {
        PhyloGenerator.Result data = PhyloGenerator.generate(dir.resolve("data"), 6, 0.5, 200, 2);
        Map<String, Double> cpu = run("cpu", "cpu5", k, "--convention", "cvtree5");
        Map<String, Double> cuda = run("cuda", "cuda5", k, "--convention", "cvtree5");
        assertThat(cuda.keySet()).isEqualTo(cpu.keySet()).hasSize(15);
        Map<String, Map<String, Double>> reference = new HashMap<>();
        for (Path file : data.proteomes()) {
            reference.put(TaxonLabels.fromPath(file),
                    Cvtree5Reference.vector(Cvtree5Reference.genes(CvTreeReference.read(file)), k));
        }
        for (Map.Entry<String, Double> e : cpu.entrySet()) {
            String[] taxa = e.getKey().split(" ");
            double cvtree5 = Cvtree5Reference.distance(reference.get(taxa[0]), reference.get(taxa[1]));
            assertThat(cuda.get(e.getKey())).as(e.getKey())
                    .isCloseTo(e.getValue(), org.assertj.core.data.Offset.offset(DISTANCE_TOLERANCE))
                    .isCloseTo(cvtree5, org.assertj.core.data.Offset.offset(DISTANCE_TOLERANCE));
        }
    }

    @Test
    void badProteomesOnCuda_failAloneWithTheCpuMessages() throws IOException {
        Path data = dir.resolve("data");
        PhyloGenerator.generate(data, 4, 0.5, 40, 5);
        Files.writeString(data.resolve("short.faa"), ">a\nACD\n>b\nKL\n");
        Files.writeString(data.resolve("poly.faa"), ">a\nAAAAAAAAAAAA\n>b\nAAAAAAA\n");
        Cli.Result r = Cli.run("phylogenetics", data.toString(), "--k", "5", "--device", "cuda");
        assertThat(r.code()).as(r.both()).isEqualTo(3);
        assertThat(r.both()).contains("short.faa").contains("no protein is at least K = 5 residues long");
        assertThat(r.both()).contains("poly.faa: every composition-vector entry is zero at K = 5")
                .contains("so the distances to this proteome are undefined");

        Cli.Result tooSmall = Cli.run("phylogenetics", data.toString(), "--k", "4", "--device", "cuda",
                "--max-entries", "100");
        assertThat(tooSmall.code()).as(tooSmall.both()).isNotZero();
        assertThat(tooSmall.both()).contains("--max-entries");
    }

    /** Pair distances of a run keyed by "left right", writing the tree to NAME.nwk. */
    private Map<String, Double> run(String device, String name) throws IOException {
        return run(device, name, 5);
    }

    /** As {@link #run(String, String)} at string length {@code k}, with {@code more} options. */
    private Map<String, Double> run(String device, String name, int k, String... more) throws IOException {
        Path tsv = dir.resolve(name + ".tsv");
        List<String> args = new ArrayList<>(List.of("phylogenetics", dir.resolve("data").toString(), "--k",
                Integer.toString(k), "--device", device, "--output", tsv.toString(), "--tree",
                dir.resolve(name + ".nwk").toString(), "--host-cache-size", "6slots", "--device-cache-size",
                "4slots"));
        args.addAll(List.of(more));
        Cli.Result r = Cli.run(args.toArray(String[]::new));
        assertThat(r.code()).as(r.both()).isZero();
        Map<String, Double> distances = new HashMap<>();
        List<String> lines = Files.readAllLines(tsv);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t");
            distances.put(f[2] + " " + f[3], Double.parseDouble(f[4]));
        }
        return distances;
    }

    private static ByteBuffer parse(Path file, SlotSizes sizes) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
        ByteBuffer out = ByteBuffer.allocate((int) sizes.inputBytes()).order(ByteOrder.LITTLE_ENDIAN);
        int length = new FastaParser().parse(file.getFileName().toString(), bytes, out);
        return out.limit(length);
    }
}
