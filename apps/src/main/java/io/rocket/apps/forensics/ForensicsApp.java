package io.rocket.apps.forensics;

import io.rocket.files.FileItemApplication;
import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.DiskCaching;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.KernelContext;
import io.rocket.core.Kernels;
import io.rocket.core.Tile;
import io.rocket.core.ResultCodec;

import java.nio.file.Path;

/**
 * Common-source camera identification as a Rocket application (apps.md §1): one key per photo; parse decodes the
 * JPEG to gray on the CPU pool; preprocess extracts the PRNU pattern on the device (noise filter, zero-mean total,
 * Wiener filter in the DFT domain) and caches the pattern (NCC) or its half spectrum (PCE); compare scores two
 * cached items. Every photo must have the collection's size; one that does not, or that is not a readable JPEG,
 * fails alone with a message naming the file.
 *
 * <p>Kernels: cpu (Java, the reference) and cuda ({@link ForensicsCudaKernels}, same item layouts). Scratch memory:
 * {@link ForensicsPipeline} keeps a JPEG decoder per CPU-pool thread, and each device's kernels own their scratch
 * (on cpu one {@link PrnuWorkspace}, and one {@link PceWorkspace} for PCE; on cuda device memory and cuFFT plans) —
 * a device runs its kernels on one thread, and {@link #kernels} is called once per device — so no step allocates per
 * item or per pair.
 */
public final class ForensicsApp extends FileItemApplication<Double> {

    private final ForensicsPipeline pipeline;

    /**
     * @param pipeline     the steps for the collection's image size and metric
     * @param maxFileBytes the largest photo file of the collection (the I/O buffer size)
     */
    public ForensicsApp(ForensicsPipeline pipeline, long maxFileBytes) {
        super(maxFileBytes);
        this.pipeline = pipeline;
    }

    /** The steps this run uses. */
    public ForensicsPipeline pipeline() {
        return pipeline;
    }

    @Override
    public String name() {
        return "forensics";
    }

    @Override
    public long maxInputBytes() {
        return pipeline.maxParsedBytes();
    }

    @Override
    public long maxItemBytes() {
        return pipeline.maxItemBytes();
    }

    @Override
    public long maxResultBytes() {
        return ForensicsPipeline.RESULT_BYTES;
    }

    @Override
    public long parse(Path key, InputFiles files, HostBuffer output) throws PhotoFormatException {
        // Pinned host memory may be larger than asked for; the device staging buffer is not, so cap the output.
        return pipeline.parse(fileName(key), files.bytes(0), window(output.byteBuffer(),
                Math.min(output.capacity(), pipeline.maxParsedBytes())));
    }

    @Override
    public Kernels<Path> kernels(DeviceKind kind) {
        return switch (kind) {
            case CPU -> new CpuKernels();
            case CUDA -> new ForensicsCudaKernels(pipeline);
            default -> throw new UnsupportedOperationException("forensics has no " + kind.id()
                    + " kernels; use --device cpu or cuda");
        };
    }

    /** {@inheritDoc} {@link DiskCaching#PREPROCESSED}: PRNU extraction (noise filter, zero-mean, Wiener) is most of the work per photo and depends only on the photo, the
     * size and the metric: keep the extracted pattern, so a later run does none of it.
     */
    @Override
    public DiskCaching diskCaching() {
        return DiskCaching.PREPROCESSED;
    }

    @Override
    public ResultCodec<Double> resultCodec() {
        return ResultCodec.DOUBLE;
    }

    @Override
    public Double postprocess(Path left, Path right, HostBuffer result) {
        return ForensicsPipeline.score(result.byteBuffer());
    }

    /**
     * The cpu kernels; one instance per device, so its workspaces serve that device's kernel thread only.
     *
     * <p>The workspaces (about 28 bytes per pixel, plus 4 for PCE, and the FFT plans: 36 MB at 1024×1024, 320 MB at
     * 3648×2736) are built in {@link #prepare}, on the kernel thread while the first photo is read, decoded and copied
     * in. Built in the constructor, they held up the run's set-up: the first photo was read only after them, and the
     * device sat idle meanwhile.
     */
    private final class CpuKernels implements Kernels<Path> {
        /** Built on first use; read and written on the kernel thread only. */
        private CpuWorkspaces workspaces;
        /** NCC tiles' blocks; built on first use, on the kernel thread. */
        private NccTile nccTile;

        @Override
        public void prepare(KernelContext context) {
            workspaces();
        }

        @Override
        public long preprocess(Path key, DeviceBuffer input, DeviceBuffer output, KernelContext context) {
            return pipeline.preprocess(fileName(key), window(input.byteBuffer(), input.length()),
                    window(output.byteBuffer(), output.capacity()), workspaces().prnu());
        }

        @Override
        public long compare(Path leftKey, DeviceBuffer left, Path rightKey, DeviceBuffer right, DeviceBuffer result,
                            KernelContext context) {
            // The shared buffers are at position 0 and little-endian, as the comparators read them: no views per pair.
            pipeline.compare(left.byteBuffer(), right.byteBuffer(), result.byteBuffer(), workspaces().pce());
            return ForensicsPipeline.RESULT_BYTES;
        }

        /** NCC: one cache-blocked pass over the tile's items ({@link NccTile}); PCE: a pair at a time. */
        @Override
        public void compareTile(Tile<Path> tile, KernelContext context) throws Exception {
            if (pipeline.metric() != Metric.NCC) {
                Kernels.super.compareTile(tile, context);
                return;
            }
            if (nccTile == null) {
                nccTile = new NccTile();
            }
            nccTile.compare(tile);
        }

        private CpuWorkspaces workspaces() {
            if (workspaces == null) {
                workspaces = new CpuWorkspaces(pipeline);
            }
            return workspaces;
        }
    }

    /** One cpu device's scratch: PRNU extraction's, and the PCE compare's (null for NCC, which needs none). */
    private record CpuWorkspaces(PrnuWorkspace prnu, PceWorkspace pce) {
        CpuWorkspaces(ForensicsPipeline pipeline) {
            this(new PrnuWorkspace(pipeline.height(), pipeline.width()), pipeline.metric() == Metric.PCE
                    ? new PceWorkspace(pipeline.height(), pipeline.width()) : null);
        }
    }
}
