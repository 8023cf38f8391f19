package io.rocket.core;

/** The kinds of device backend an application can supply kernels for. */
public enum DeviceKind {
    /** Java kernels on a CPU thread; device memory is off-heap host memory. */
    CPU,
    /** Modelled kernel and copy times; touches no data. For runtime benchmarks and cluster simulation. */
    SIM,
    /** NVIDIA GPUs. */
    CUDA;

    /**
     * The lower-case name used on the command line.
     *
     * @return {@code cpu}, {@code sim} or {@code cuda}
     */
    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
