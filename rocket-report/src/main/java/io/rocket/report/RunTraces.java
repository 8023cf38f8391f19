package io.rocket.report;

import io.rocket.core.RocketException;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The traces of one run: every node of every given file (a cluster run writes one file per node, all on rank 0's
 * clock), ordered by rank, with the task names they share and the time span their tasks cover.
 */
public final class RunTraces {
    private final List<NodeTrace> nodes;
    private final EventNames names;
    private final List<String> warnings;
    private final double startMicros;
    private final double endMicros;

    private RunTraces(List<NodeTrace> nodes, EventNames names, List<String> warnings) {
        this.nodes = List.copyOf(nodes);
        this.names = names;
        this.warnings = List.copyOf(warnings);
        double start = Double.POSITIVE_INFINITY;
        double end = Double.NEGATIVE_INFINITY;
        for (NodeTrace n : nodes) {
            for (ThreadTrack t : n.threads()) {
                start = Math.min(start, t.firstStart());
                end = Math.max(end, t.lastEnd());
            }
        }
        if (start > end) {
            start = 0;
            end = 0;
        }
        this.startMicros = start;
        this.endMicros = end;
    }

    /** Reads the files; a file naming the same pid as an earlier one still gives a node of its own. */
    public static RunTraces read(List<Path> files) {
        if (files.isEmpty()) {
            throw new RocketException("no trace files given");
        }
        EventNames names = new EventNames();
        TraceReader reader = new TraceReader(names);
        List<NodeTrace> nodes = new ArrayList<>();
        for (Path file : files) {
            nodes.addAll(reader.read(file));
        }
        nodes.sort(Comparator.comparingInt(NodeTrace::pid));
        return new RunTraces(nodes, names, reader.warnings());
    }

    /** Nodes in rank order. */
    public List<NodeTrace> nodes() {
        return nodes;
    }

    public EventNames names() {
        return names;
    }

    public List<String> warnings() {
        return warnings;
    }

    /** Earliest task start over all nodes, microseconds on the trace clock. */
    public double startMicros() {
        return startMicros;
    }

    /** Latest task end over all nodes. */
    public double endMicros() {
        return endMicros;
    }

    /** Seconds from the first task's start to the last task's end. */
    public double spanSeconds() {
        return (endMicros - startMicros) / 1e6;
    }

    /** A label for a node: its process name, with the file name when two nodes share a pid. */
    public String label(NodeTrace node) {
        long same = nodes.stream().filter(n -> n.pid() == node.pid()).count();
        return same > 1 ? node.processName() + " (" + node.file().getFileName() + ")" : node.processName();
    }

    /** All threads of a kind, over all nodes. */
    public List<ThreadTrack> threads(ResourceKind kind) {
        List<ThreadTrack> list = new ArrayList<>();
        for (NodeTrace n : nodes) {
            for (ThreadTrack t : n.threads()) {
                if (t.kind() == kind) {
                    list.add(t);
                }
            }
        }
        return list;
    }

    /** Number of tasks named {@code name} over all nodes and threads. */
    public long count(String name) {
        int id = names.find(name);
        long n = 0;
        if (id >= 0) {
            for (NodeTrace node : nodes) {
                for (ThreadTrack t : node.threads()) {
                    for (int k = 0; k < t.size(); k++) {
                        n += t.nameId(k) == id ? 1 : 0;
                    }
                }
            }
        }
        return n;
    }

    /** Mean duration in seconds of the tasks named {@code name}, or null when there are none. */
    public Double meanSeconds(String name) {
        int id = names.find(name);
        long n = 0;
        double sum = 0;
        if (id >= 0) {
            for (NodeTrace node : nodes) {
                for (ThreadTrack t : node.threads()) {
                    for (int k = 0; k < t.size(); k++) {
                        if (t.nameId(k) == id) {
                            n++;
                            sum += t.duration(k);
                        }
                    }
                }
            }
        }
        return n == 0 ? null : sum / n / 1e6;
    }

    /** Number of items the tasks name: the highest item number plus one, 0 when none. */
    public long items() {
        int max = -1;
        for (NodeTrace n : nodes) {
            max = Math.max(max, n.maxItem());
        }
        return max + 1L;
    }

    /** Number of tasks over all nodes. */
    public long taskCount() {
        long n = 0;
        for (NodeTrace node : nodes) {
            n += node.taskCount();
        }
        return n;
    }
}
