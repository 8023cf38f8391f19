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

    /**
     * A short name used in logs, traces and the summary.
     *
     * @return a non-null, human-readable name; the class's simple name unless overridden
     */
    default String name() {
        return getClass().getSimpleName();
    }

    /**
     * A short label for a key in outputs and error messages (a file name, say); not its identity.
     *
     * @param key one of the run's keys, never null
     * @return the label, never null; {@code String.valueOf(key)} unless overridden. Labels need not be unique, but
     *         the disk cache keys items by it, so it should not change between runs for the same input.
     */
    default String label(K key) {
        return String.valueOf(key);
    }

    /**
     * The files to read for a key, in the order {@link #parse} receives them; may be empty (generated items).
     *
     * @param key one of the run's keys, never null
     * @return the paths, never null; an empty list when the item is generated rather than read. Paths may belong to
     *         any file system the runtime can read (local, or remote through the input locations).
     */
    List<Path> inputFiles(K key);

    /**
     * The largest total size of one key's files; a larger input is an error for its item.
     *
     * @return a size in bytes, at least 0 and below 2 GiB ({@code Integer.MAX_VALUE - 8}); by default
     *         {@link #maxInputBytes()}. The runtime sizes its read buffers from it, once, at start-up.
     */
    default long maxFileBytes() {
        return maxInputBytes();
    }

    /**
     * The largest parsed item (the output of {@link #parse}, the input of preprocess).
     *
     * @return a size in bytes, at least 0: the capacity of the host and device staging buffers {@link #parse}
     *         fills and {@link Kernels#preprocess} reads
     */
    long maxInputBytes();

    /**
     * The largest preprocessed item: the size of one cache slot at every level.
     *
     * @return a size in bytes, greater than 0 and below 2 GiB ({@code Integer.MAX_VALUE - 8}); together with the
     *         cache sizes it fixes how many items each cache level holds
     */
    long maxItemBytes();

    /**
     * The largest result of one comparison.
     *
     * @return a size in bytes, at least 0: the capacity of the result buffers {@link Kernels#compare} fills and
     *         {@link #postprocess} reads
     */
    long maxResultBytes();

    /**
     * Parses the file contents for {@code key} into {@code output} on a CPU-pool thread.
     *
     * @param key the item's key, never null
     * @param files the contents of the key's {@link #inputFiles(Object) input files}, in that order (none for a
     *        generated item); valid only until this method returns
     * @param output the buffer to fill, {@link #maxInputBytes()} bytes of capacity, readied for writing (see
     *        {@link HostBuffer#byteBuffer()}); owned by the runtime, so keep no reference to it after returning
     * @return the number of bytes written to {@code output}, from 0 to its capacity; the runtime sets the buffer's
     *         {@link HostBuffer#length(long) length} to it
     * @throws Exception on input that cannot be parsed; the item fails (every pair with it is reported as failed)
     *         and the run goes on
     */
    long parse(K key, InputFiles files, HostBuffer output) throws Exception;

    /**
     * The kernels for a device kind.
     *
     * @param kind the kind of the device the kernels will run on, never null
     * @return the kernels, never null; called once per device at start-up, and the same object may serve every
     *         device of that kind (each device's kernels run on that device's own kernel thread)
     * @throws UnsupportedOperationException when this application has no kernels for that kind
     */
    Kernels<K> kernels(DeviceKind kind);

    /**
     * What the disk cache keeps of this application's items across runs (see {@link DiskCaching}); items are keyed
     * by the application, its options, the key's label and the identity (size, modification time, ETag) of its files.
     *
     * @return what to keep, never null; {@link DiskCaching#PARSED} by default
     */
    default DiskCaching diskCaching() {
        return DiskCaching.PARSED;
    }

    /**
     * How results travel between cluster nodes; null (the default) means this application runs on one node only.
     *
     * @return the codec for {@code R}, or null when the application does not support runs on several nodes (such a
     *         run is then refused at start-up)
     */
    default ResultCodec<R> resultCodec() {
        return null;
    }

    /**
     * Whether f is not symmetric, so that f(a, b) and f(b, a) must both be computed. The runtime then runs every pair
     * of the run's pair space in both orientations: the result sink receives (i, j) and (j, i), and the first index
     * is then not always the smaller. For a symmetric f (the default) each pair is computed once, with i &lt; j.
     *
     * @return true for an asymmetric f, computed both ways; false (the default) for a symmetric one
     */
    default boolean ordered() {
        return false;
    }

    /**
     * The score of a result, by which {@code --top-k}, {@code --min-score} and {@code --max-score} rank and filter
     * pairs on the node that computed them. Numeric results ({@link Number}) are their own score; an application
     * whose results are not numbers overrides this to use those options.
     *
     * @param result a result {@link #postprocess} returned, never null
     * @return the pair's score; NaN means the pair is never kept by a reduction
     * @throws RocketException when the result is not a {@link Number} and the application does not override this
     *         method (the message names the application); the pair is then reported as failed
     */
    default double score(R result) {
        if (result instanceof Number number) {
            return number.doubleValue();
        }
        throw new RocketException(name() + " has results of type " + result.getClass().getName()
                + ", not numbers: it must override Application.score(R) to be used with --top-k, --min-score or "
                + "--max-score");
    }

    /**
     * Whether a smaller {@link #score} is better (distances), so that {@code --top-k} keeps the K smallest; by
     * default a larger score is better (similarities).
     *
     * @return true when smaller scores are better; false (the default) when larger ones are
     */
    default boolean smallerIsBetter() {
        return false;
    }

    /**
     * Turns a comparison result into an {@code R} on a CPU-pool thread.
     *
     * @param left the key of the pair's first item, never null
     * @param right the key of the pair's second item, never null
     * @param result the bytes {@link Kernels#compare} wrote, copied to the host and readied for reading (position 0,
     *        limit at its length); owned by the runtime and reused once this method returns
     * @return the pair's result, handed to the result sink; must not refer to {@code result}'s memory
     * @throws Exception when the result cannot be turned into an {@code R}; the pair is reported as failed and the
     *         run goes on
     */
    R postprocess(K left, K right, HostBuffer result) throws Exception;
}
