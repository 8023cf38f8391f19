package io.rocket.core.device;

import io.rocket.core.HostBuffer;

/**
 * Where the node's host buffers come from: plain direct memory, or pinned memory when a GPU is used so copies run
 * at full bandwidth. All host buffers (L2 slots, staging, results) are allocated through one of these, once.
 */
public interface HostMemory extends AutoCloseable {

    /** Allocates a host buffer of {@code bytes}. */
    HostBuffer allocate(long bytes);

    /**
     * Whether the host cache may allocate its slots when first used, during the run, rather than all before it:
     * true for plain direct memory; pinned memory is slow to allocate and may wait for the GPU.
     */
    default boolean allocatesOnFirstUse() {
        return false;
    }

    /** Bytes allocated so far. */
    long allocatedBytes();

    /** Frees everything allocated. */
    @Override
    void close();
}
