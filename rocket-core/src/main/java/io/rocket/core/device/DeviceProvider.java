package io.rocket.core.device;

import io.rocket.core.DeviceKind;

import java.util.List;
import java.util.Optional;

/**
 * A pluggable device backend, found with {@link java.util.ServiceLoader}: how the cuda backend joins without core
 * knowing about it. Reports why it is unusable instead of failing at class-loading time.
 */
public interface DeviceProvider {

    /**
     * The kind of device this provider opens.
     *
     * @return the device kind, never null; {@link Devices} asks the provider of a spec's kind
     */
    DeviceKind kind();

    /**
     * Empty when usable, else a one-line reason (no driver, no kernels packaged, ...).
     *
     * @return empty when the devices can be opened, else the reason shown to the user; never throws
     */
    Optional<String> unavailabilityCause();

    /**
     * Opens the devices of a spec of this provider's kind.
     *
     * @param spec the devices to open, of this provider's {@link #kind()}
     * @return the opened devices, in the spec's order, indexed from 0; the caller closes them
     * @throws io.rocket.core.RocketException when a device named by the spec cannot be opened
     */
    List<Device> open(DeviceSpec spec);

    /**
     * The host memory to use with these devices (pinned for GPUs).
     *
     * @return the host memory for the node's host buffers, never null; the caller closes it
     */
    HostMemory hostMemory();
}
