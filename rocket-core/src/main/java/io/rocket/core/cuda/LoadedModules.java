package io.rocket.core.cuda;

import io.rocket.core.RocketException;
import jcuda.driver.CUfunction;
import jcuda.driver.CUmodule;
import jcuda.driver.CUresult;
import jcuda.driver.JCudaDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kernel modules loaded into one GPU's context, and kernel functions looked up by name. Modules are loaded
 * when the device opens (so a module the driver cannot load stops the run before it starts); functions are looked
 * up on first launch and cached, so a launch by name costs one hash lookup. Function lookup is confined to the
 * device's kernel thread; loading and unloading happen when the device opens and closes.
 */
final class LoadedModules implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LoadedModules.class);

    private final String device;
    private final Map<String, CUmodule> modules = new LinkedHashMap<>();
    private final Map<String, CUfunction> functions = new HashMap<>();

    private LoadedModules(String device) {
        this.device = device;
    }

    /** Loads every named module into the current context. */
    static LoadedModules load(List<String> names, String device) {
        LoadedModules loaded = new LoadedModules(device);
        try {
            for (String name : names) {
                loaded.modules.put(name, loadOne(name, device));
            }
        } catch (RuntimeException e) {
            loaded.close();
            throw e;
        }
        return loaded;
    }

    private static CUmodule loadOne(String name, String device) {
        List<KernelModules.Image> images = KernelModules.images(name);
        if (images.isEmpty()) {
            throw new RocketException("CUDA module '" + name + "' is listed in " + KernelModules.LIST
                    + " but neither " + KernelModules.DIR + name + ".fatbin nor .ptx is on the class path");
        }
        List<String> failures = new ArrayList<>();
        for (KernelModules.Image image : images) {
            CUmodule module = new CUmodule();
            int result = JCudaDriver.cuModuleLoadData(module, image.bytes());
            if (result == CUresult.CUDA_SUCCESS) {
                LOG.debug("{}: loaded {}", device, image.resource());
                return module;
            }
            failures.add(image.resource() + ": " + CUresult.stringFor(result));
        }
        throw new RocketException("cannot load CUDA module '" + name + "' on " + device + " (" + String.join(", ", failures)
                + "); the driver may be older than the nvcc that built the kernels: rebuild them with this "
                + "machine's nvcc (scripts/build-kernels) or update the driver");
    }

    /** The names of the loaded modules. */
    List<String> names() {
        return List.copyOf(modules.keySet());
    }

    /** The kernel function {@code name}, looked up in the loaded modules in order. */
    CUfunction function(String name) {
        CUfunction function = functions.get(name);
        if (function == null) {
            function = find(name);
            functions.put(name, function);
        }
        return function;
    }

    private CUfunction find(String name) {
        for (CUmodule module : modules.values()) {
            CUfunction function = new CUfunction();
            if (JCudaDriver.cuModuleGetFunction(function, module, name) == CUresult.CUDA_SUCCESS) {
                return function;
            }
        }
        throw new IllegalArgumentException("no CUDA kernel '" + name + "' in the modules " + modules.keySet()
                + " loaded on " + device + " (kernels must be declared extern \"C\" __global__)");
    }

    /** Unloads every module; the context must be current. Errors are logged: this runs during shutdown. */
    @Override
    public void close() {
        for (Map.Entry<String, CUmodule> e : modules.entrySet()) {
            int result = JCudaDriver.cuModuleUnload(e.getValue());
            if (result != CUresult.CUDA_SUCCESS) {
                LOG.warn("{}: unloading CUDA module {} failed: {}", device, e.getKey(), CUresult.stringFor(result));
            }
        }
        modules.clear();
        functions.clear();
    }
}
