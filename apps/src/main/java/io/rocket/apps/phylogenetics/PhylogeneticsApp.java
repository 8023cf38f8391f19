package io.rocket.apps.phylogenetics;

import io.rocket.files.FileItemApplication;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.DiskCaching;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.ResultCodec;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Locale;

/**
 * CVTree as a Rocket application (apps.md §2): one key per proteome file; parse reads the FASTA text (plain or gzip)
 * into residue codes on the CPU pool ({@link FastaParser}); preprocess builds the composition vector on the device
 * ({@link CompositionVectorBuilder}); compare yields the distance D = (1 − C)/2 of two vectors ({@link CvDistance}).
 * Buffer sizes come from {@link SlotSizes}; a proteome that does not fit fails alone with a
 * {@link SlotTooSmallException}. Labels are taxon names ({@link TaxonLabels}); error messages name the file.
 *
 * <p>Kernels: cpu (Java, the reference) and cuda ({@link PhyloCudaKernels}, same vector layout). Scratch memory: a
 * {@link FastaParser} per CPU-pool thread, and per device a {@link CvWorkspace} (cpu) or device memory (cuda) — each
 * device runs its kernels on one thread, and {@link #kernels} is called once per device.
 */
public final class PhylogeneticsApp extends FileItemApplication<Double> {

    private final SlotSizes sizes;
    private final CompositionVectorBuilder builder;
    private final ThreadLocal<FastaParser> parsers;

    /** The app reading the text with the convention its buffers were sized for ({@link SlotSizes#convention}). */
    public PhylogeneticsApp(SlotSizes sizes) {
        super(sizes.fileBytes());
        this.sizes = sizes;
        this.builder = new CompositionVectorBuilder(sizes.k());
        this.parsers = ThreadLocal.withInitial(() -> new FastaParser(sizes.convention()));
    }

    /** How proteome text is read. */
    public Convention convention() {
        return sizes.convention();
    }

    /** The buffer sizes this run uses. */
    public SlotSizes sizes() {
        return sizes;
    }

    @Override
    public String name() {
        return "phylogenetics";
    }

    @Override
    public String label(Path key) {
        return TaxonLabels.fromPath(key);
    }

    @Override
    public long maxInputBytes() {
        return sizes.inputBytes();
    }

    @Override
    public long maxItemBytes() {
        return sizes.itemBytes();
    }

    @Override
    public long maxResultBytes() {
        return CvDistance.RESULT_BYTES;
    }

    @Override
    public long parse(Path key, InputFiles files, HostBuffer output) {
        String name = fileName(key);
        // Pinned host memory may be larger than asked for; the device staging buffer is not, so cap the output.
        ByteBuffer out = window(output.byteBuffer(), Math.min(output.capacity(), sizes.inputBytes()));
        try {
            return parsers.get().parse(name, files.bytes(0), out);
        } catch (BufferTooSmallException e) {
            throw new SlotTooSmallException(String.format(Locale.ROOT,
                    "%s: the parsed proteome needs %d bytes but the staging buffer holds %d (%s); "
                            + "rerun with --max-residues %d or more", name, e.requiredBytes(), e.availableBytes(),
                    sizedBy(key), sizes.residuesFor(e.requiredBytes())), e);
        }
    }

    /** How the staging buffer that {@code key} did not fit was sized, for its error message. */
    private String sizedBy(Path key) {
        if (sizes.residuesGiven()) {
            return "sized by --max-residues " + sizes.residues();
        }
        for (SlotSizes.Outlier outlier : sizes.outliers()) {
            if (outlier.file().equals(key)) {
                return String.format(Locale.ROOT, "sized for %,d residues, the largest of the proteomes that are not "
                        + "outliers: its %,d bytes of text are more than %d times the others' (the 95th percentile), "
                        + "so it was left out", sizes.residues(), outlier.residues(), SlotSizes.OUTLIER_FACTOR);
            }
        }
        return "sized from the file sizes read before the run";
    }

    @Override
    public Kernels<Path> kernels(DeviceKind kind) {
        return switch (kind) {
            case CPU -> new CpuKernels();
            case CUDA -> new PhyloCudaKernels(this);
            default -> throw new UnsupportedOperationException("phylogenetics has no " + kind.id()
                    + " kernels; use --device cpu or cuda");
        };
    }

    /**
     * {@inheritDoc} {@link DiskCaching#PREPROCESSED}: building the composition vector (counting, radix sort, Markov
     * correction) depends only on the proteome, K and {@code --convention}: keep the vector, so a later run neither
     * parses nor builds it. The disk cache and the journal key entries by the command's options at their values
     * ({@code RuntimeOptionsMixin.jobOptions}), {@code --k} and {@code --convention} included, so a vector counted
     * one way is never served to a run that counts another.
     */
    @Override
    public DiskCaching diskCaching() {
        return DiskCaching.PREPROCESSED;
    }

    /** Results are distances: {@code --top-k} keeps the nearest proteomes. */
    @Override
    public boolean smallerIsBetter() {
        return true;
    }

    @Override
    public ResultCodec<Double> resultCodec() {
        return ResultCodec.DOUBLE;
    }

    @Override
    public Double postprocess(Path left, Path right, HostBuffer result) {
        return CvDistance.readResult(result.byteBuffer());
    }

    /** The error for a vector that does not fit its slot, naming the option that would make it fit. */
    SlotTooSmallException vectorTooLarge(String name, BufferTooSmallException e) {
        String sizedBy = sizes.entriesGiven() ? "sized by --max-entries " + sizes.entries()
                : "sized for " + sizes.residues() + " residues"
                        + (sizes.residuesGiven() ? " by --max-residues" : " from the file sizes");
        return new SlotTooSmallException(String.format(
                "%s: the composition vector (K = %d) needs %d bytes (%d entries) but a cache slot holds %d (%s); "
                        + "rerun with --max-entries %d or more", name, sizes.k(), e.requiredBytes(),
                SlotSizes.entriesFor(e.requiredBytes()), e.availableBytes(), sizedBy,
                SlotSizes.entriesFor(e.requiredBytes())), e);
    }

    /** The cpu kernels; one instance per device, so its workspace is used by that device's kernel thread only. */
    private final class CpuKernels implements Kernels<Path> {
        private final CvWorkspace workspace = new CvWorkspace();

        @Override
        public long preprocess(Path key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
            String name = fileName(key);
            ByteBuffer parsed = window(input.byteBuffer(), input.length());
            ByteBuffer vector = window(output.byteBuffer(), Math.min(output.capacity(), sizes.itemBytes()));
            try {
                return builder.build(name, parsed, vector, workspace);
            } catch (BufferTooSmallException e) {
                throw vectorTooLarge(name, e);
            }
        }

        @Override
        public long compare(Path leftKey, DeviceBuffer left, Path rightKey, DeviceBuffer right, DeviceBuffer result,
                            KernelContext context) {
            // The shared buffers are at position 0 and little-endian, as CvDistance reads them: no views per pair.
            CvDistance.compare(left.byteBuffer(), right.byteBuffer(), result.byteBuffer());
            return CvDistance.RESULT_BYTES;
        }
    }
}
