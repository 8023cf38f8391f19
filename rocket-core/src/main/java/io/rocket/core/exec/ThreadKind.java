package io.rocket.core.exec;

/** The kinds of resource thread; each kind does one kind of work, so resources never contend. */
public enum ThreadKind {
    /** Input files, read-ahead and the disk cache. */
    IO("io", "`io`, `io-N`, `disk-write`", "read input files, read ahead, read and write the disk cache"),
    /** The CPU pool: the application's parse and postprocess. */
    CPU("cpu", "`cpu`, `cpu-N`", "the CPU pool: parse and postprocess"),
    /** One per device: the application's preprocess and compare kernels. */
    KERNEL("kernel", "`DEVICE kernel`", "one per device: preprocess and compare"),
    /** One per device: copies from host to device. */
    COPY_IN("h2d", "`DEVICE h2d`", "one per device: copies host to device"),
    /** One per device: copies from device to host (items and results). */
    COPY_OUT("d2h", "`DEVICE d2h`", "one per device: copies device to host (items and results)"),
    /** One per device: takes leaves of the pair matrix and submits their pair jobs. */
    WORKER("worker", "`worker N`", "one per device: takes leaves of the pair matrix and submits their pair jobs");

    private final String id;
    private final String threadNames;
    private final String description;

    ThreadKind(String id, String threadNames, String description) {
        this.id = id;
        this.threadNames = threadNames;
        this.description = description;
    }

    /**
     * The names its threads carry in the trace (Markdown; DEVICE is the device's id, such as {@code cpu0}).
     *
     * @return the thread names as Markdown, for generated documentation of the trace
     */
    public String threadNames() {
        return threadNames;
    }

    /**
     * What its threads do (Markdown, one sentence).
     *
     * @return the description, for generated documentation of the trace
     */
    public String description() {
        return description;
    }

    /**
     * The short name used in thread names, traces and the summary.
     *
     * @return the lower-case id, e.g. {@code h2d}; the key of the summary's {@code busy_seconds}
     */
    public String id() {
        return id;
    }
}
