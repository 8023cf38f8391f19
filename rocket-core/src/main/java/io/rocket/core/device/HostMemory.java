package io.rocket.core.device;

import io.rocket.core.HostBuffer;

/**
 * Where the node's host buffers come from: plain direct memory, or pinned memory when a GPU is used so copies run
 * at full bandwidth. All host buffers (L2 slots, staging, results) are allocated through one of these, once.
 */
public interface HostMemory extends AutoCloseable {

    /**
     * Allocates a host buffer of {@code bytes}. May be called from any thread.
     *
     * @param bytes the capacity in bytes, from 0 to {@code Integer.MAX_VALUE}
     * @return a buffer of exactly that capacity with length 0, owned by this memory until {@link #close()}
     */
    HostBuffer allocate(long bytes);

    /**
     * Whether the host cache may allocate its slots when first used, during the run, rather than all before it:
     * true for plain direct memory; pinned memory is slow to allocate and may wait for the GPU.
     *
     * @return true when slots may be allocated lazily; false (the default) to allocate them all at start-up
     */
    default boolean allocatesOnFirstUse() {
        return false;
    }

    /**
     * Bytes allocated so far.
     *
     * @return the total capacity of the buffers allocated through this memory, in bytes
     */
    long allocatedBytes();

    /** Frees everything allocated. */
    @Override
    void close();
}
