package io.rocket.core.device;

import io.rocket.core.DeviceKind;
import io.rocket.core.RocketException;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Opens the devices named by a {@link DeviceSpec}, with the host memory that suits them. cpu and sim are built in;
 * other kinds come from a {@link DeviceProvider} on the class path.
 */
public final class Devices {
    private Devices() {
    }

    /**
     * The opened devices and the node's host memory.
     *
     * @param devices the opened devices, in the spec's order, indexed from 0; the caller closes each
     * @param hostMemory the host memory to allocate the node's host buffers from; the caller closes it
     */
    public record Opened(List<Device> devices, HostMemory hostMemory) {
    }

    /**
     * Opens the devices of {@code spec}, or throws a {@link RocketException} saying why they cannot be used.
     *
     * @param spec the devices to open, never null
     * @return the opened devices, in the spec's order, with the host memory to use with them; the caller closes both
     * @throws RocketException when the kind has no backend in this build, or its backend is unusable here
     */
    public static Opened open(DeviceSpec spec) {
        if (spec.kind() == DeviceKind.CPU || spec.kind() == DeviceKind.SIM) {
            List<Device> devices = new ArrayList<>();
            for (int d = 0; d < spec.count(); d++) {
                devices.add(spec.kind() == DeviceKind.CPU ? new CpuDevice(d)
                        : new SimDevice(d, SimDevice.DEFAULT_COPY_BYTES_PER_SECOND, spec.slowdown()));
            }
            return new Opened(devices, new DirectHostMemory());
        }
        for (DeviceProvider provider : ServiceLoader.load(DeviceProvider.class)) {
            if (provider.kind() == spec.kind()) {
                String cause = provider.unavailabilityCause().orElse(null);
                if (cause != null) {
                    throw new RocketException("device " + spec + " unavailable: " + cause);
                }
                return new Opened(provider.open(spec), provider.hostMemory());
            }
        }
        throw new RocketException("device " + spec + " unavailable: this build has no " + spec.kind().id() + " backend");
    }
}
