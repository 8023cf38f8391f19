package io.rocket.apps.microscopy;

import io.rocket.files.FileItemApplication;
import io.rocket.core.DeviceKind;
import io.rocket.core.HostBuffer;
import io.rocket.core.InputFiles;
import io.rocket.core.Kernels;
import io.rocket.core.ResultCodec;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * All-to-all registration of localization-microscopy particles (apps.md §3, Heydarian et al. 2018) as a Rocket
 * application: one key per particle file; parse reads it ({@link ParticleReader}), caps it at
 * {@link RegistrationSettings#maxPoints()} localizations ({@link DensityResampler}) and writes the centred
 * {@link ParticleSlot} with its bins for the coarse search; preprocess copies the slot to the device; compare
 * registers the pair ({@link Registrar}) into a {@link Registration} that maps the left particle onto the right one. Kernels exist for cpu
 * ({@link MicroscopyCpuKernels}) and cuda ({@link MicroscopyCudaKernels}); results cross a cluster through
 * {@link RegistrationCodec}. A bad file fails alone with a {@link ParticleFormatException} naming it.
 */
public final class MicroscopyApp extends FileItemApplication<Registration> {
    private final RegistrationSettings settings;
    private final DensityResampler resampler;
    private final ThreadLocal<Parsing> parsing;

    /** One thread's reusable parse state. */
    private static final class Parsing {
        final ParticleReader reader = new ParticleReader();
        final Particle raw = new Particle(4096);
        final Particle capped = new Particle(4096);
    }

    /**
     * @param maxFileBytes the largest particle file of the run (bounds the I/O buffers)
     */
    public MicroscopyApp(RegistrationSettings settings, long maxFileBytes) {
        super(maxFileBytes);
        this.settings = settings;
        // Density is counted within one GMM scale: the structure the cost sees.
        this.resampler = new DensityResampler(settings.maxPoints(), settings.scale());
        this.parsing = ThreadLocal.withInitial(Parsing::new);
    }

    public RegistrationSettings settings() {
        return settings;
    }

    @Override
    public String name() {
        return "microscopy";
    }

    @Override
    public long maxInputBytes() {
        return settings.slotBytes();
    }

    @Override
    public long maxItemBytes() {
        return settings.slotBytes();
    }

    @Override
    public long maxResultBytes() {
        return Registration.BYTES;
    }

    @Override
    public long parse(Path key, InputFiles files, HostBuffer output) throws ParticleFormatException {
        Parsing p = parsing.get();
        p.reader.read(fileName(key), files.bytes(0), p.raw);
        resampler.resample(p.raw, p.capped);
        // Pinned host memory may be larger than asked for; write only what a slot holds.
        ByteBuffer out = window(output.byteBuffer(), Math.min(output.capacity(), settings.slotBytes()));
        return ParticleSlot.write(p.capped, out, settings.scale());
    }

    @Override
    public Kernels<Path> kernels(DeviceKind kind) {
        return switch (kind) {
            case CPU -> new MicroscopyCpuKernels(settings);
            case CUDA -> new MicroscopyCudaKernels(settings);
            default -> throw new UnsupportedOperationException("microscopy has no " + kind.id()
                    + " kernels; use --device cpu or cuda");
        };
    }

    @Override
    public ResultCodec<Registration> resultCodec() {
        return RegistrationCodec.INSTANCE;
    }

    @Override
    public Registration postprocess(Path left, Path right, HostBuffer result) {
        return Registration.read(result.byteBuffer());
    }
}
