package io.rocket.core.device;

import io.rocket.core.HostBuffer;

/**
 * Where the node's host buffers come from: plain direct memory, or pinned memory when a GPU is used so copies run
 * at full bandwidth. All host buffers (L2 slots, staging, results) are allocated through one of these, once.
 */
public interface HostMemory extends AutoCloseable {

    /** Allocates a host buffer of {@code bytes}. */
    HostBuffer allocate(long bytes);

    /** Bytes allocated so far. */
    long allocatedBytes();

    /** Frees everything allocated. */
    @Override
    void close();
}
