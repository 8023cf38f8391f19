package io.rocket.report;

import java.util.Locale;

/**
 * What a traced thread does, as the runtime names its threads ({@code io}, {@code cpu-N}, {@code DEV kernel},
 * {@code DEV h2d}, {@code DEV d2h}, {@code worker N}, the data-plane receivers); threads named otherwise are
 * classified by the category of their tasks.
 */
public enum ResourceKind {
    IO("io", "I/O"),
    CPU("cpu", "CPU"),
    H2D("h2d", "copy host→device"),
    D2H("d2h", "copy device→host"),
    KERNEL("kernel", "kernel (device)"),
    NET("net", "network (L3 fetch)"),
    WORKER("worker", "scheduler"),
    OTHER("other", "other");

    private final String id;
    private final String label;

    ResourceKind(String id, String label) {
        this.id = id;
        this.label = label;
    }

    /** Short name, as in the summary's {@code busy_seconds}. */
    public String id() {
        return id;
    }

    /** Name for people. */
    public String label() {
        return label;
    }

    /**
     * The kind of a thread from its name, else from {@code category} (the Chrome {@code cat} of most of its tasks,
     * or null).
     */
    public static ResourceKind classify(String threadName, String category) {
        String n = threadName == null ? "" : threadName.toLowerCase(Locale.ROOT).trim();
        if (n.equals("io") || n.startsWith("io-")) {
            return IO;
        }
        if (n.equals("cpu") || n.startsWith("cpu-")) {
            return CPU;
        }
        if (n.endsWith(" kernel")) {
            return KERNEL;
        }
        if (n.endsWith(" h2d")) {
            return H2D;
        }
        if (n.endsWith(" d2h")) {
            return D2H;
        }
        if (n.startsWith("worker")) {
            return WORKER;
        }
        if (n.contains("data-in") || n.contains("data-out")) {
            return NET;
        }
        if (category == null) {
            return OTHER;
        }
        return switch (category) {
            case "io" -> IO;
            case "cpu" -> CPU;
            case "kernel" -> KERNEL;
            case "net" -> NET;
            default -> OTHER;
        };
    }
}
