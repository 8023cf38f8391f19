package io.rocket.core;

/**
 * What a kernel may ask of the device it runs on. Handed to {@link Kernels} methods on the kernel thread.
 */
public interface KernelContext {

    /**
     * The kind of device running the kernel.
     *
     * @return the device kind, never null
     */
    DeviceKind kind();

    /**
     * The index of the device within this node.
     *
     * @return an index from 0 to the node's device count minus 1
     */
    int deviceIndex();

    /**
     * Keeps the device busy for {@code nanos}: the cpu device spins, the sim device advances its modelled clock.
     * Used by synthetic workloads to model kernel cost.
     *
     * @param nanos the time to keep the device busy, in nanoseconds; 0 or less does nothing
     */
    void occupy(long nanos);
}
