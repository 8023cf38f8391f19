package io.rocket.core.device;

import io.rocket.core.KernelContext;

/**
 * The runtime's side of a {@link KernelContext}: brackets each kernel so the device reports how long it took, in
 * measured time on real devices and modelled time on the sim device.
 */
public interface DeviceKernelContext extends KernelContext {

    /** Marks the start of a kernel. */
    void begin();

    /**
     * Marks the end of the kernel started by {@link #begin()} and returns its device time in nanoseconds.
     *
     * @return the kernel's device time in nanoseconds: measured on real devices, modelled on the sim device
     */
    long end();

    /**
     * A reusable bracket for kernels that run asynchronously, or null (the default) when this device completes
     * every kernel before {@link #end()} returns. With one, the kernel thread launches a compare and goes on to the
     * next while another thread waits for the first: the host's per-pair work (launch, bookkeeping, handing the
     * result on) then overlaps the device's, instead of leaving the device idle between kernels. Make one per pair
     * job, once; the device frees them when it closes.
     *
     * @return a new step, or null when this device runs kernels synchronously
     */
    default OverlappedStep newOverlappedStep() {
        return null;
    }

    /**
     * One asynchronous kernel step: {@link #begin()} and {@link #end()} on the kernel thread around the launches,
     * then {@link #await()} on any thread. Begin again only after {@code await} returned.
     */
    interface OverlappedStep {

        /** Marks the start of a kernel, on the kernel thread. */
        void begin();

        /** Marks the end of the kernel's launches, on the kernel thread; does not wait for the device. */
        void end();

        /**
         * Waits until the kernel is complete and returns its device time in nanoseconds.
         *
         * @return the kernel's device time in nanoseconds, between {@link #begin()} and the kernel's completion
         * @throws RuntimeException the device's error when the kernel failed
         */
        long await();
    }
}
