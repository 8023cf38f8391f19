package io.rocket.core.cuda;

import io.rocket.core.DeviceBuffer;
import io.rocket.core.DeviceKind;
import io.rocket.core.device.DeviceKernelContext;
import jcuda.Pointer;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The kernel context of one GPU: launches on the device's kernel stream and times each step with a pair of events
 * recorded around it. {@link #end()} waits on the stop event, which is what makes a step complete when it returns
 * (the {@link io.rocket.core.device.Device} contract) and surfaces errors raised inside kernels as a
 * {@link CudaException} for that item or pair. Confined to the kernel thread, apart from {@link #close()}.
 */
final class GpuKernelContext implements CudaKernelContext, DeviceKernelContext {
    private static final Logger LOG = LoggerFactory.getLogger(GpuKernelContext.class);
    private static final String OCCUPY = "rocket_occupy";

    private final CudaDevice device;
    private final CudaStream stream;
    private final KernelLauncher launcher;
    private final CUevent start = new CUevent();
    private final CUevent stop = new CUevent();
    private final float[] elapsed = new float[1];
    private final List<CuFft.Plan> plans = new ArrayList<>();
    /** Made by the pipeline's thread at start-up, destroyed at close. */
    private final List<GpuStep> steps = new ArrayList<>();
    /** Made once: a kernel step must not allocate. */
    private final String recordEvent;
    private final String kernelStep;
    private final String readStep;
    /** Host side of {@link #readDoubles}; grown on demand, kept for the life of the context. */
    private ByteBuffer staging;
    private Pointer stagingPointer;
    private DoubleBuffer stagingDoubles;
    private final String writeStep;
    /** Tables written to the device ({@link #writeInts}, {@link #writeAddresses}); grows to the largest. */
    private ByteBuffer writeStaging;
    private Pointer writeStagingPointer;
    private boolean started;

    GpuKernelContext(CudaDevice device, CudaStream stream, LoadedModules modules) {
        this.device = device;
        this.stream = stream;
        this.recordEvent = device.name() + ": cuEventRecord";
        this.kernelStep = "kernel on " + device.name();
        this.readStep = device.name() + ": read back for the host";
        this.writeStep = device.name() + ": table for a kernel";
        this.launcher = new KernelLauncher(device, stream, modules, new KernelArguments(device.context()));
        CudaDriver.check(JCudaDriver.cuEventCreate(start, CUevent_flags.CU_EVENT_DEFAULT), "cuEventCreate");
        CudaDriver.check(JCudaDriver.cuEventCreate(stop, CUevent_flags.CU_EVENT_DEFAULT), "cuEventCreate");
    }

    @Override
    public DeviceKind kind() {
        return DeviceKind.CUDA;
    }

    @Override
    public int deviceIndex() {
        return device.index();
    }

    /** Spins one GPU thread for {@code nanos} of GPU time (the core module's {@value #OCCUPY} kernel). */
    @Override
    public void occupy(long nanos) {
        if (nanos > 0) {
            launcher.start(OCCUPY).arg(nanos).launch();
        }
    }

    @Override
    public void begin() {
        device.makeCurrent();
        CudaDriver.check(JCudaDriver.cuEventRecord(start, stream), recordEvent);
        started = true;
    }

    @Override
    public long end() {
        device.makeCurrent();
        CudaDriver.check(JCudaDriver.cuEventRecord(stop, stream), recordEvent);
        int result = JCudaDriver.cuEventSynchronize(stop);
        if (result != CUresult.CUDA_SUCCESS) {
            started = false;
            throw new CudaException(kernelStep, result, CUresult.stringFor(result));
        }
        if (!started) {
            return 0;
        }
        started = false;
        CudaDriver.check(JCudaDriver.cuEventElapsedTime(elapsed, start, stop), "cuEventElapsedTime");
        return (long) (elapsed[0] * 1e6);
    }

    /**
     * A pair of events of its own, so several compares can be in flight on the kernel stream: the kernel thread
     * records them around the launches and moves on, and the thread that copies the result out waits for the stop
     * event. (The stream runs kernels in order, so a step's start event fires when the previous kernel ends and
     * the elapsed time is this kernel's alone.)
     */
    @Override
    public OverlappedStep newOverlappedStep() {
        GpuStep step = new GpuStep();
        synchronized (steps) {
            steps.add(step);
        }
        return step;
    }

    private final class GpuStep implements OverlappedStep {
        private final CUevent stepStart = new CUevent();
        private final CUevent stepStop = new CUevent();
        private final float[] stepElapsed = new float[1];

        GpuStep() {
            device.makeCurrent();
            CudaDriver.check(JCudaDriver.cuEventCreate(stepStart, CUevent_flags.CU_EVENT_DEFAULT), "cuEventCreate");
            CudaDriver.check(JCudaDriver.cuEventCreate(stepStop, CUevent_flags.CU_EVENT_DEFAULT), "cuEventCreate");
        }

        @Override
        public void begin() {
            device.makeCurrent();
            CudaDriver.check(JCudaDriver.cuEventRecord(stepStart, stream), recordEvent);
        }

        @Override
        public void end() {
            CudaDriver.check(JCudaDriver.cuEventRecord(stepStop, stream), recordEvent);
        }

        @Override
        public long await() {
            device.makeCurrent();
            int result = JCudaDriver.cuEventSynchronize(stepStop);
            if (result != CUresult.CUDA_SUCCESS) {
                throw new CudaException(kernelStep, result, CUresult.stringFor(result));
            }
            CudaDriver.check(JCudaDriver.cuEventElapsedTime(stepElapsed, stepStart, stepStop), "cuEventElapsedTime");
            return (long) (stepElapsed[0] * 1e6);
        }

        void destroy() {
            JCudaDriver.cuEventDestroy(stepStart);
            JCudaDriver.cuEventDestroy(stepStop);
        }
    }

    @Override
    public void launch(String function, int gridX, int blockX, Object... args) {
        launcher.start(function).grid(gridX).block(blockX);
        for (Object arg : args) {
            launcher.argObject(arg);
        }
        launcher.launch();
    }

    @Override
    public CudaLaunch kernel(String function) {
        return launcher.start(function);
    }

    @Override
    public CuFft.Plan fft2d(int nx, int ny, CuFft.Type type, int batch) {
        device.makeCurrent();
        CuFft.Plan plan = CuFft.plan2d(nx, ny, type, batch, stream, device.context(), device.name());
        plans.add(plan);
        return plan;
    }

    @Override
    public DeviceBuffer scratch(long bytes) {
        return device.allocate(bytes);
    }

    @Override
    public void readDoubles(DeviceBuffer source, double[] values, int count) {
        long bytes = (long) count * Double.BYTES;
        if (count < 0 || count > values.length || bytes > source.capacity()) {
            throw new IllegalArgumentException("cannot read " + count + " doubles into an array of " + values.length
                    + " from a buffer of " + source.capacity() + " bytes");
        }
        if (!(source instanceof CudaBuffer cuda) || !cuda.ownedBy(device.context())) {
            throw new IllegalArgumentException(device.name() + ": not a buffer of this GPU");
        }
        if (count == 0) {
            return;
        }
        if (staging == null || staging.capacity() < bytes) {
            // Grows to the largest read and stays: pageable memory, so the copy completes before the call returns.
            staging = ByteBuffer.allocateDirect((int) Math.max(bytes, 4096)).order(ByteOrder.nativeOrder());
            stagingPointer = Pointer.to(staging);
            stagingDoubles = staging.asDoubleBuffer();
        }
        device.makeCurrent();
        CudaDriver.check(JCudaDriver.cuMemcpyDtoHAsync(stagingPointer, cuda.pointer(), bytes, stream), readStep);
        CudaDriver.check(JCudaDriver.cuStreamSynchronize(stream), readStep);
        stagingDoubles.get(0, values, 0, count);
    }

    @Override
    public void writeInts(DeviceBuffer target, int[] values, int count) {
        if (count < 0 || count > values.length) {
            throw new IllegalArgumentException("cannot write " + count + " ints from an array of " + values.length);
        }
        ByteBuffer out = writeStaging((long) count * Integer.BYTES);
        out.asIntBuffer().put(values, 0, count);
        queueWrite(target, (long) count * Integer.BYTES);
    }

    @Override
    public void writeAddresses(DeviceBuffer target, DeviceBuffer[] buffers, int count) {
        if (count < 0 || count > buffers.length) {
            throw new IllegalArgumentException("cannot write " + count + " addresses from an array of "
                    + buffers.length);
        }
        ByteBuffer out = writeStaging((long) count * Long.BYTES);
        for (int k = 0; k < count; k++) {
            out.putLong(k * Long.BYTES, own(buffers[k]).address());
        }
        queueWrite(target, (long) count * Long.BYTES);
    }

    /** The write staging memory, at least {@code bytes}: pageable, so a queued copy has read it on return. */
    private ByteBuffer writeStaging(long bytes) {
        if (writeStaging == null || writeStaging.capacity() < bytes) {
            writeStaging = ByteBuffer.allocateDirect((int) Math.max(bytes, 4096)).order(ByteOrder.nativeOrder());
            writeStagingPointer = Pointer.to(writeStaging);
        }
        return writeStaging;
    }

    private void queueWrite(DeviceBuffer target, long bytes) {
        CudaBuffer cuda = own(target);
        if (bytes > target.capacity()) {
            throw new IllegalArgumentException("cannot write " + bytes + " bytes to a buffer of " + target.capacity());
        }
        if (bytes == 0) {
            return;
        }
        device.makeCurrent();
        // From pageable memory the driver copies the bytes into its own staging before returning, so the next
        // write may reuse ours; on the device the copy runs in stream order, after the kernels before it.
        CudaDriver.check(JCudaDriver.cuMemcpyHtoDAsync(cuda.pointer(), writeStagingPointer, bytes, stream),
                writeStep);
    }

    private CudaBuffer own(DeviceBuffer buffer) {
        if (!(buffer instanceof CudaBuffer cuda) || !cuda.ownedBy(device.context())) {
            throw new IllegalArgumentException(device.name() + ": not a buffer of this GPU");
        }
        return cuda;
    }

    @Override
    public int multiprocessors() {
        return device.properties().multiprocessors();
    }

    /** Destroys the plans and events; the context must be current and the stream idle. */
    void close() {
        for (CuFft.Plan plan : plans) {
            try {
                plan.close();
            } catch (RuntimeException e) {
                LOG.warn("{}: {}", device.name(), e.getMessage());
            }
        }
        plans.clear();
        synchronized (steps) {
            steps.forEach(GpuStep::destroy);
            steps.clear();
        }
        JCudaDriver.cuEventDestroy(start);
        JCudaDriver.cuEventDestroy(stop);
    }
}
