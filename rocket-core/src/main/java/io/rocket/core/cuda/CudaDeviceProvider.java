package io.rocket.core.cuda;

import io.rocket.core.DeviceKind;
import io.rocket.core.RocketException;
import io.rocket.core.device.Device;
import io.rocket.core.device.DeviceProvider;
import io.rocket.core.device.DeviceSpec;
import io.rocket.core.device.HostMemory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The cuda backend's entry point, found by {@link java.util.ServiceLoader} through
 * {@code META-INF/services/io.rocket.core.device.DeviceProvider}. It is usable when the NVIDIA driver loads, sees a
 * GPU, and kernel modules are packaged on the class path; otherwise {@link #unavailabilityCause()} says which of
 * these is missing in one line, and {@code --device cuda} stops with that line. Opening GPUs also pins the node's
 * host memory ({@link #hostMemory()}), which is why one provider instance serves one opening.
 */
public final class CudaDeviceProvider implements DeviceProvider {
    private PinnedHostMemory hostMemory;

    /** The provider {@link java.util.ServiceLoader} creates; it touches no GPU until asked. */
    public CudaDeviceProvider() {
    }

    @Override
    public DeviceKind kind() {
        return DeviceKind.CUDA;
    }

    @Override
    public Optional<String> unavailabilityCause() {
        Optional<String> driver = CudaDriver.unavailabilityCause();
        return driver.isPresent() ? driver : KernelModules.missingCause();
    }

    /**
     * Opens every GPU ({@code cuda}) or the listed ordinals ({@code cuda:0,2}), numbered 0.. in that order.
     *
     * @throws RocketException when the backend is unavailable, an ordinal does not exist or is repeated, or a GPU
     *                         cannot be set up (e.g. its driver cannot load the kernels)
     */
    @Override
    public synchronized List<Device> open(DeviceSpec spec) {
        if (spec.kind() != DeviceKind.CUDA) {
            throw new IllegalArgumentException("not a cuda device spec: " + spec);
        }
        unavailabilityCause().ifPresent(cause -> {
            throw new RocketException("device " + spec + " unavailable: " + cause);
        });
        if (hostMemory != null) {
            throw new IllegalStateException("this provider already opened its devices");
        }
        List<Integer> ordinals = ordinals(spec, CudaDriver.probe().deviceCount());
        List<String> modules = KernelModules.names();
        List<Device> devices = new ArrayList<>();
        PinnedHostMemory pinned = new PinnedHostMemory(ordinals.get(0));
        try {
            for (int index = 0; index < ordinals.size(); index++) {
                devices.add(CudaDevice.open(index, ordinals.get(index), pinned, modules));
            }
        } catch (RuntimeException e) {
            devices.forEach(Device::close);
            pinned.close();
            throw e;
        }
        hostMemory = pinned;
        return devices;
    }

    /** The ordinals a spec names, checked against the {@code count} GPUs present. */
    static List<Integer> ordinals(DeviceSpec spec, int count) {
        if (spec.ordinals().isEmpty()) {
            List<Integer> all = new ArrayList<>();
            for (int d = 0; d < count; d++) {
                all.add(d);
            }
            return all;
        }
        Set<Integer> seen = new HashSet<>();
        for (int ordinal : spec.ordinals()) {
            if (ordinal >= count) {
                throw new RocketException("device " + spec + ": there is no GPU " + ordinal + " (this machine has "
                        + count + ": " + (count == 1 ? "0" : "0-" + (count - 1)) + ")");
            }
            if (!seen.add(ordinal)) {
                throw new RocketException("device " + spec + " names GPU " + ordinal + " twice");
            }
        }
        return spec.ordinals();
    }

    /** The pinned host memory of the GPUs opened by {@link #open}. */
    @Override
    public synchronized HostMemory hostMemory() {
        if (hostMemory == null) {
            throw new IllegalStateException("open the cuda devices before asking for their host memory");
        }
        return hostMemory;
    }
}
