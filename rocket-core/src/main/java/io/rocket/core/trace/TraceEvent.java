package io.rocket.core.trace;

/** The tasks the runtime traces, with the Perfetto/Chrome name and category each shows under. */
public enum TraceEvent {
    READ("read", "io", Args.ITEM),
    READ_AHEAD("read ahead", "io", Args.ITEM),
    DISK_READ("disk cache read", "io", Args.ITEM),
    DISK_WRITE("disk cache write", "io", Args.ITEM),
    PARSE("parse", "cpu", Args.ITEM),
    COPY_IN("h2d", "copy", Args.ITEM),
    PREPROCESS("preprocess", "kernel", Args.ITEM),
    COPY_BACK_ITEM("d2h item", "copy", Args.ITEM),
    COMPARE("compare", "kernel", Args.PAIR),
    COPY_OUT("d2h result", "copy", Args.PAIR),
    POSTPROCESS("postprocess", "cpu", Args.PAIR),
    REMOTE_FETCH("remote fetch", "net", Args.ITEM);

    /** What the two integer arguments of an event mean. */
    public enum Args { ITEM, PAIR }

    private final String displayName;
    private final String category;
    private final Args args;

    TraceEvent(String displayName, String category, Args args) {
        this.displayName = displayName;
        this.category = category;
        this.args = args;
    }

    public String displayName() {
        return displayName;
    }

    public String category() {
        return category;
    }

    public Args args() {
        return args;
    }
}
