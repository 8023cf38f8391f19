package io.rocket.core;

import java.nio.file.Path;
import java.util.List;

/**
 * An all-pairs application: what Rocket needs to know to compute {@code f(load(i), load(j))} for every pair of keys.
 *
 * <p>The five steps follow the paper's pipeline (Fig. 2/3): the files for a key are read by the runtime's I/O
 * thread; {@link #parse} turns their bytes into a host buffer on the CPU pool; the device's {@link Kernels#preprocess}
 * turns the parsed input into the cached item; {@link Kernels#compare} compares two cached items into a result
 * buffer; {@link #postprocess} turns that buffer into an {@code R} on the CPU pool. The sizes tell the runtime how
 * large its fixed slots must be: all memory is allocated once, up front.
 *
 * <p>Every buffer handed to a step starts at position 0 with its limit at what the step may use (the capacity of a
 * buffer to fill, the length of one to read), whatever it held before, so relative gets and puts work (see
 * {@link HostBuffer#byteBuffer()} and {@link DeviceBuffer#byteBuffer()}).
 *
 * <p>Every method may be called concurrently from several runtime threads, for different keys. An exception thrown
 * for one key or pair is reported with that key and never stops the run.
 *
 * @param <K> the key type: one key per input item, identified by its index in the key array
 * @param <R> the result of comparing two items
 */
public interface Application<K, R> {

    /** A short name used in logs, traces and the summary. */
    default String name() {
        return getClass().getSimpleName();
    }

    /** A short label for a key in outputs and error messages (a file name, say); not its identity. */
    default String label(K key) {
        return String.valueOf(key);
    }

    /** The files to read for a key, in the order {@link #parse} receives them; may be empty (generated items). */
    List<Path> inputFiles(K key);

    /** The largest total size of one key's files; a larger input is an error for its item. */
    default long maxFileBytes() {
        return maxInputBytes();
    }

    /** The largest parsed item (the output of {@link #parse}, the input of preprocess). */
    long maxInputBytes();

    /** The largest preprocessed item: the size of one cache slot at every level. */
    long maxItemBytes();

    /** The largest result of one comparison. */
    long maxResultBytes();

    /**
     * Parses the file contents for {@code key} into {@code output} on a CPU-pool thread.
     *
     * @return the number of bytes written to {@code output}
     */
    long parse(K key, InputFiles files, HostBuffer output) throws Exception;

    /**
     * The kernels for a device kind.
     *
     * @throws UnsupportedOperationException when this application has no kernels for that kind
     */
    Kernels<K> kernels(DeviceKind kind);

    /**
     * What the disk cache keeps of this application's items across runs (see {@link DiskCaching}); items are keyed
     * by the application, its options, the key's label and the identity (size, modification time, ETag) of its files.
     */
    default DiskCaching diskCaching() {
        return DiskCaching.PARSED;
    }

    /**
     * How results travel between cluster nodes; null (the default) means this application runs on one node only.
     */
    default ResultCodec<R> resultCodec() {
        return null;
    }

    /** Turns a comparison result into an {@code R} on a CPU-pool thread. */
    R postprocess(K left, K right, HostBuffer result) throws Exception;
}
