package io.rocket.core;

/**
 * What a kernel may ask of the device it runs on. Handed to {@link Kernels} methods on the kernel thread.
 */
public interface KernelContext {

    /** The kind of device running the kernel. */
    DeviceKind kind();

    /** The index of the device within this node. */
    int deviceIndex();

    /**
     * Keeps the device busy for {@code nanos}: the cpu device spins, the sim device advances its modelled clock.
     * Used by synthetic workloads to model kernel cost.
     */
    void occupy(long nanos);
}
