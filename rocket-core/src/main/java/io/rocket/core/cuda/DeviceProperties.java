package io.rocket.core.cuda;

import jcuda.driver.CUdevice;
import jcuda.driver.CUdevice_attribute;
import jcuda.driver.JCudaDriver;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The facts about one GPU that the run summary and error messages show.
 *
 * @param ordinal         the CUDA device ordinal
 * @param product         the product name, e.g. {@code NVIDIA H100 80GB HBM3}
 * @param totalMemory     device memory in bytes
 * @param multiprocessors streaming multiprocessors
 * @param major           compute capability, major
 * @param minor           compute capability, minor
 * @param driverVersion   the driver's CUDA version, e.g. 13000
 */
record DeviceProperties(int ordinal, String product, long totalMemory, int multiprocessors, int major, int minor,
                        int driverVersion) {

    static DeviceProperties query(int ordinal, CUdevice device, int driverVersion) {
        byte[] name = new byte[256];
        CudaDriver.check(JCudaDriver.cuDeviceGetName(name, name.length, device), "cuDeviceGetName");
        int length = 0;
        while (length < name.length && name[length] != 0) {
            length++;
        }
        long[] memory = new long[1];
        CudaDriver.check(JCudaDriver.cuDeviceTotalMem(memory, device), "cuDeviceTotalMem");
        return new DeviceProperties(ordinal, new String(name, 0, length, StandardCharsets.UTF_8), memory[0],
                attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
                attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                attribute(device, CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR), driverVersion);
    }

    private static int attribute(CUdevice device, int attribute) {
        int[] value = new int[1];
        CudaDriver.check(JCudaDriver.cuDeviceGetAttribute(value, attribute, device), "cuDeviceGetAttribute");
        return value[0];
    }

    String computeCapability() {
        return major + "." + minor;
    }

    /** One line for logs: {@code NVIDIA H100 80GB HBM3, 79.1 GiB, 132 SMs, compute 9.0}. */
    String describe() {
        return String.format("%s, %.1f GiB, %d SMs, compute %s", product, totalMemory / (double) (1L << 30),
                multiprocessors, computeCapability());
    }

    /** The summary's device entry. */
    Map<String, Object> toMap(String name) {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("name", name);
        map.put("kind", "cuda");
        map.put("product", product);
        map.put("ordinal", ordinal);
        map.put("total_memory_bytes", totalMemory);
        map.put("multiprocessors", multiprocessors);
        map.put("compute_capability", computeCapability());
        map.put("driver_cuda_version", CudaDriver.versionText(driverVersion));
        return Collections.unmodifiableMap(map);
    }
}
