package io.rocket.core.device;

import io.rocket.core.KernelContext;

/**
 * The runtime's side of a {@link KernelContext}: brackets each kernel so the device reports how long it took, in
 * measured time on real devices and modelled time on the sim device.
 */
public interface DeviceKernelContext extends KernelContext {

    /** Marks the start of a kernel. */
    void begin();

    /** Marks the end of the kernel started by {@link #begin()} and returns its device time in nanoseconds. */
    long end();
}
