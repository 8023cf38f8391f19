package io.rocket.core.trace;

/** The tasks the runtime traces, with the Perfetto/Chrome name and category each shows under. */
public enum TraceEvent {
    /** An I/O thread reads an item's input files. */
    READ("read", "io", Args.ITEM, "an I/O thread reads an item's input files"),
    /** An I/O thread reads the files of an item the schedule needs next. */
    READ_AHEAD("read ahead", "io", Args.ITEM, "an I/O thread reads the files of an item the schedule needs next"),
    /** An item is read back from the disk cache. */
    DISK_READ("disk cache read", "io", Args.ITEM, "an item is read back from the disk cache (`--disk-cache`)"),
    /** A loaded item is written to the disk cache. */
    DISK_WRITE("disk cache write", "io", Args.ITEM, "a loaded item is written to the disk cache"),
    /** The CPU pool runs the application's {@code parse}. */
    PARSE("parse", "cpu", Args.ITEM, "the CPU pool runs the application's `parse` into a staging buffer"),
    /** A parsed item (or an L2 copy) is copied to the device. */
    COPY_IN("h2d", "copy", Args.ITEM, "a parsed item (or an L2 copy) is copied to the device"),
    /** The device's kernel thread preprocesses an item into its L1 slot. */
    PREPROCESS("preprocess", "kernel", Args.ITEM, "the device's kernel thread preprocesses an item into its L1 slot"),
    /** A preprocessed item is copied back into its L2 slot. */
    COPY_BACK_ITEM("d2h item", "copy", Args.ITEM, "a preprocessed item is copied back into its L2 slot"),
    /** The device's kernel thread compares two cached items, or a tile's pairs (a span names its first pair). */
    COMPARE("compare", "kernel", Args.PAIR, "the device's kernel thread compares two cached items, or a tile's pairs "
            + "(a span names the tile's first pair; its cost counts per pair)"),
    /** A pair's result, or every result of a tile in one copy, is copied back to the host. */
    COPY_OUT("d2h result", "copy", Args.PAIR, "a pair's result, or every result of a tile in one copy, is copied back "
            + "to the host"),
    /** The CPU pool turns a result buffer into the application's result. */
    POSTPROCESS("postprocess", "cpu", Args.PAIR, "the CPU pool turns a result buffer into the application's result"),
    /** An item is received from another node's host cache (L3). */
    REMOTE_FETCH("remote fetch", "net", Args.ITEM, "an item is received from another node's host cache (L3)");

    /** What the two integer arguments of an event mean. */
    public enum Args {
        /** The first argument is an item's index; the second is -1. */
        ITEM,
        /** The two arguments are the indices {@code i < j} of a pair's items. */
        PAIR
    }

    private final String displayName;
    private final String category;
    private final Args args;
    private final String description;

    TraceEvent(String displayName, String category, Args args, String description) {
        this.displayName = displayName;
        this.category = category;
        this.args = args;
        this.description = description;
    }

    /**
     * The slice's name in the trace.
     *
     * @return the name shown on the timeline, e.g. {@code d2h result}
     */
    public String displayName() {
        return displayName;
    }

    /**
     * The slice's category ({@code cat}): io, cpu, copy, kernel or net.
     *
     * @return the category, one of those five
     */
    public String category() {
        return category;
    }

    /**
     * Whether the slice's arguments name an item ({@code item}) or a pair ({@code i}, {@code j}).
     *
     * @return {@link Args#ITEM} or {@link Args#PAIR}
     */
    public Args args() {
        return args;
    }

    /**
     * What the slice's span covers (Markdown, one sentence).
     *
     * @return the description, for generated documentation of the trace
     */
    public String description() {
        return description;
    }
}
