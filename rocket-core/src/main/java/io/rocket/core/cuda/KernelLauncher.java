package io.rocket.core.cuda;

import io.rocket.core.DeviceBuffer;
import jcuda.driver.CUfunction;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;

/**
 * Launches kernels by name on one GPU's kernel stream: resolves the function in the device's loaded modules,
 * collects the launch configuration and arguments in reused storage ({@link KernelArguments}) and calls
 * cuLaunchKernel. The single instance per device is the {@link CudaLaunch} every {@code kernel(...)} call returns.
 * Confined to the kernel thread.
 */
final class KernelLauncher implements CudaLaunch {
    private final CudaDevice device;
    private final CudaStream stream;
    private final LoadedModules modules;
    private final KernelArguments arguments;
    private String name;
    private CUfunction function;
    private int gridX, gridY, gridZ, blockX, blockY, blockZ, shared;

    KernelLauncher(CudaDevice device, CudaStream stream, LoadedModules modules, KernelArguments arguments) {
        this.device = device;
        this.stream = stream;
        this.modules = modules;
        this.arguments = arguments;
    }

    /** Starts describing a launch of {@code functionName}. */
    KernelLauncher start(String functionName) {
        device.makeCurrent();
        this.function = modules.function(functionName);
        this.name = functionName;
        gridX = gridY = gridZ = blockX = blockY = blockZ = 1;
        shared = 0;
        arguments.clear();
        return this;
    }

    @Override
    public CudaLaunch grid(int x) {
        return grid(x, 1, 1);
    }

    @Override
    public CudaLaunch grid(int x, int y, int z) {
        positive("grid", x, y, z);
        gridX = x;
        gridY = y;
        gridZ = z;
        return this;
    }

    @Override
    public CudaLaunch block(int x) {
        return block(x, 1, 1);
    }

    @Override
    public CudaLaunch block(int x, int y, int z) {
        positive("block", x, y, z);
        blockX = x;
        blockY = y;
        blockZ = z;
        return this;
    }

    private void positive(String what, int x, int y, int z) {
        if (x < 1 || y < 1 || z < 1) {
            throw new IllegalArgumentException(name + ": " + what + " " + x + "x" + y + "x" + z + " must be positive");
        }
    }

    @Override
    public CudaLaunch sharedBytes(int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException(name + ": shared memory must be >= 0, got " + bytes);
        }
        shared = bytes;
        return this;
    }

    @Override
    public CudaLaunch arg(DeviceBuffer buffer) {
        arguments.add(buffer);
        return this;
    }

    @Override
    public CudaLaunch arg(int value) {
        arguments.add(value);
        return this;
    }

    @Override
    public CudaLaunch arg(long value) {
        arguments.add(value);
        return this;
    }

    @Override
    public CudaLaunch arg(float value) {
        arguments.add(value);
        return this;
    }

    @Override
    public CudaLaunch arg(double value) {
        arguments.add(value);
        return this;
    }

    /** Adds an argument of any supported type (the varargs form of {@link CudaKernelContext#launch}). */
    void argObject(Object value) {
        arguments.add(value);
    }

    @Override
    public void launch() {
        if (function == null) {
            throw new IllegalStateException("describe a launch with kernel(name) first");
        }
        int result = JCudaDriver.cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ, shared,
                stream, arguments.kernelParams(), null);
        if (result != CUresult.CUDA_SUCCESS) {
            throw new CudaException("launch of " + name + " on " + device.name() + " (grid " + gridX + "x" + gridY
                    + "x" + gridZ + ", block " + blockX + "x" + blockY + "x" + blockZ + ", " + arguments.count()
                    + " arguments)", result, CUresult.stringFor(result));
        }
    }
}
