package io.rocket.core.exec;

/** The kinds of resource thread; each kind does one kind of work, so resources never contend. */
public enum ThreadKind {
    IO("io"),
    CPU("cpu"),
    KERNEL("kernel"),
    COPY_IN("h2d"),
    COPY_OUT("d2h"),
    WORKER("worker");

    private final String id;

    ThreadKind(String id) {
        this.id = id;
    }

    /** The short name used in thread names, traces and the summary. */
    public String id() {
        return id;
    }
}
