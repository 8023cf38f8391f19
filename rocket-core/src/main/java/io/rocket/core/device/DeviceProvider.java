package io.rocket.core.device;

import io.rocket.core.DeviceKind;

import java.util.List;
import java.util.Optional;

/**
 * A pluggable device backend, found with {@link java.util.ServiceLoader}: how the cuda backend joins without core
 * knowing about it. Reports why it is unusable instead of failing at class-loading time.
 */
public interface DeviceProvider {

    DeviceKind kind();

    /** Empty when usable, else a one-line reason (no driver, no kernels packaged, ...). */
    Optional<String> unavailabilityCause();

    /** Opens the devices of a spec of this provider's kind. */
    List<Device> open(DeviceSpec spec);

    /** The host memory to use with these devices (pinned for GPUs). */
    HostMemory hostMemory();
}
