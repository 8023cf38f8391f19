package io.rocket.report;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one process of a trace file recorded: in a Rocket trace one node (the Chrome {@code pid} is its rank), with
 * its named threads, their tasks and its counter tracks.
 */
public final class NodeTrace {
    private final Path file;
    private final int pid;
    private String processName;
    private final Map<Integer, ThreadTrack> threads = new LinkedHashMap<>();
    private final Map<String, CounterTrack> counters = new LinkedHashMap<>();
    private int maxItem = -1;
    private List<ThreadTrack> ordered = List.of();

    NodeTrace(Path file, int pid) {
        this.file = file;
        this.pid = pid;
        this.processName = "process " + pid;
    }

    /** The trace file it came from. */
    public Path file() {
        return file;
    }

    /** The Chrome pid: the node's rank in a Rocket trace. */
    public int pid() {
        return pid;
    }

    /** The process name the trace gives (e.g. {@code rank 2 synthetic}). */
    public String processName() {
        return processName;
    }

    void processName(String name) {
        this.processName = name;
    }

    ThreadTrack thread(int tid) {
        return threads.computeIfAbsent(tid, ThreadTrack::new);
    }

    CounterTrack counter(String name) {
        return counters.computeIfAbsent(name, CounterTrack::new);
    }

    /** Threads in display order (sort index, then tid). */
    public List<ThreadTrack> threads() {
        return ordered;
    }

    /** The counter track of that name, or null. */
    public CounterTrack counterTrack(String name) {
        return counters.get(name);
    }

    /** Highest item number any task names (item, i or j argument), -1 when none. */
    public int maxItem() {
        return maxItem;
    }

    void item(int item) {
        maxItem = Math.max(maxItem, item);
    }

    /**
     * Sorts the tasks of every thread and orders the threads the same way on every node: I/O, CPU, then each
     * device's kernel, h2d and d2h threads, network, scheduler, others; devices and threads within a group by name,
     * numbers in names compared as numbers (cpu-2 before cpu-10).
     */
    void finish(EventNames names) {
        List<ThreadTrack> list = new ArrayList<>(threads.values());
        for (ThreadTrack t : list) {
            t.finish(names);
        }
        Comparator<String> natural = NodeTrace::compareNatural;
        list.sort(Comparator.comparingInt((ThreadTrack t) -> group(t.kind()))
                .thenComparing(t -> device(t) == null ? "" : device(t), natural)
                .thenComparingInt(t -> t.kind() == ResourceKind.KERNEL ? 0 : t.kind() == ResourceKind.H2D ? 1 : 2)
                .thenComparing(ThreadTrack::name, natural)
                .thenComparingInt(ThreadTrack::sortIndex).thenComparingInt(ThreadTrack::tid));
        ordered = List.copyOf(list);
    }

    /** Compares names with runs of digits as numbers. */
    static int compareNatural(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i);
            char y = b.charAt(j);
            if (Character.isDigit(x) && Character.isDigit(y)) {
                int ei = i;
                int ej = j;
                while (ei < a.length() && Character.isDigit(a.charAt(ei))) {
                    ei++;
                }
                while (ej < b.length() && Character.isDigit(b.charAt(ej))) {
                    ej++;
                }
                java.math.BigInteger nx = new java.math.BigInteger(a.substring(i, ei));
                java.math.BigInteger ny = new java.math.BigInteger(b.substring(j, ej));
                int c = nx.compareTo(ny);
                if (c != 0) {
                    return c;
                }
                i = ei;
                j = ej;
            } else {
                if (x != y) {
                    return Character.compare(x, y);
                }
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    private static int group(ResourceKind kind) {
        return switch (kind) {
            case IO -> 0;
            case CPU -> 1;
            case KERNEL, H2D, D2H -> 2;
            case NET -> 3;
            case WORKER -> 4;
            case OTHER -> 5;
        };
    }

    /** The device a kernel or copy thread belongs to ("sim:0" of "sim:0 kernel"), else null. */
    private static String device(ThreadTrack t) {
        ResourceKind k = t.kind();
        if (k != ResourceKind.KERNEL && k != ResourceKind.H2D && k != ResourceKind.D2H) {
            return null;
        }
        int space = t.name().lastIndexOf(' ');
        return space < 0 ? t.name() : t.name().substring(0, space);
    }

    /** Number of tasks over all threads. */
    public long taskCount() {
        long n = 0;
        for (ThreadTrack t : ordered) {
            n += t.size();
        }
        return n;
    }
}
