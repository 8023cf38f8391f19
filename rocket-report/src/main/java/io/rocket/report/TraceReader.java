package io.rocket.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import io.rocket.core.RocketException;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Streams a Chrome Trace Event Format file (as {@code --trace} writes it; gzip is recognised by its magic bytes)
 * into one {@link NodeTrace} per process, without building a tree of the whole file: complete ({@code X}) and
 * begin/end ({@code B}/{@code E}) tasks, counters ({@code C}) and the process and thread names ({@code M}). Both the
 * object form ({@code {"traceEvents":[...]}}) and the bare array form are accepted; an array cut short after some
 * events (a trace whose writer stopped) is kept with a warning.
 */
public final class TraceReader {
    private static final JsonFactory JSON = new JsonFactory();
    private static final int MAX_ARGS = 32;

    private final EventNames names;
    private final List<String> warnings = new ArrayList<>();

    /** @param names the run's task names, shared by all its trace files */
    public TraceReader(EventNames names) {
        this.names = names;
    }

    /** Problems that did not stop reading (a truncated file), one line each. */
    public List<String> warnings() {
        return warnings;
    }

    /**
     * Reads one trace file.
     *
     * @throws RocketException with a one-line message when the file is missing, unreadable or not a trace
     */
    public List<NodeTrace> read(Path file) {
        if (Files.isDirectory(file)) {
            throw new RocketException("trace " + file + " is a directory, not a trace file");
        }
        try (InputStream in = open(file)) {
            return parse(file, in);
        } catch (NoSuchFileException e) {
            throw new RocketException("cannot read trace " + file + ": no such file");
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new RocketException(file + " is not a Chrome trace (not JSON: " + e.getOriginalMessage()
                    .lines().findFirst().orElse("") + (at == null ? "" : " at line " + at.getLineNr()
                    + " column " + at.getColumnNr()) + ")");
        } catch (ZipException | EOFException e) {
            throw new RocketException("trace " + file + " is truncated or a damaged gzip file: " + e.getMessage());
        } catch (IOException e) {
            throw new RocketException("cannot read trace " + file + ": " + e.getMessage());
        }
    }

    private static InputStream open(Path file) throws IOException {
        InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        raw.mark(2);
        int b0 = raw.read();
        int b1 = raw.read();
        raw.reset();
        if (b0 == 0x1f && b1 == 0x8b) {
            return new BufferedInputStream(new GZIPInputStream(raw, 1 << 16), 1 << 16);
        }
        return raw;
    }

    private List<NodeTrace> parse(Path file, InputStream in) throws IOException {
        Map<Integer, NodeTrace> nodes = new LinkedHashMap<>();
        Events events = new Events(file, nodes);
        try (JsonParser p = JSON.createParser(in)) {
            JsonToken first = p.nextToken();
            boolean found = false;
            if (first == JsonToken.START_ARRAY) {
                found = true;
                events.array(p);
            } else if (first == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String field = p.currentName();
                    JsonToken value = p.nextToken();
                    if (field.equals("traceEvents") && value == JsonToken.START_ARRAY) {
                        found = true;
                        events.array(p);
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                throw new RocketException(file + " is not a Chrome trace (expected a JSON object with traceEvents "
                        + "or an array of events)");
            }
            if (!found) {
                throw new RocketException(file + " is not a Chrome trace (no traceEvents array)");
            }
        } catch (JsonEOFException | EOFException e) {
            if (events.count == 0) {
                throw e;
            }
            warnings.add(file + " ends early (" + e.getClass().getSimpleName() + "); kept its first " + events.count
                    + " events");
        }
        if (events.count == 0) {
            throw new RocketException(file + " holds no trace events");
        }
        List<NodeTrace> list = new ArrayList<>(nodes.values());
        for (NodeTrace node : list) {
            node.finish(names);
        }
        return list;
    }

    /** The event loop with its reusable argument buffers. */
    private final class Events {
        final Path file;
        final Map<Integer, NodeTrace> nodes;
        final Map<Long, ArrayDeque<Open>> open = new HashMap<>();
        final String[] argKeys = new String[MAX_ARGS];
        final double[] argNumbers = new double[MAX_ARGS];
        final String[] argStrings = new String[MAX_ARGS];
        int argCount;
        long count;

        Events(Path file, Map<Integer, NodeTrace> nodes) {
            this.file = file;
            this.nodes = nodes;
        }

        void array(JsonParser p) throws IOException {
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                if (t == null) {
                    throw new JsonEOFException(p, null, "end of input inside traceEvents");
                }
                if (t == JsonToken.START_OBJECT) {
                    event(p);
                } else {
                    p.skipChildren();
                }
            }
        }

        private void event(JsonParser p) throws IOException {
            String name = null;
            String cat = null;
            String ph = null;
            int pid = 0;
            int tid = 0;
            double ts = Double.NaN;
            double dur = 0;
            argCount = 0;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                switch (field) {
                    case "name" -> name = v == JsonToken.VALUE_STRING ? p.getText() : null;
                    case "cat" -> cat = v == JsonToken.VALUE_STRING ? p.getText() : null;
                    case "ph" -> ph = v == JsonToken.VALUE_STRING ? p.getText() : null;
                    case "pid" -> pid = v.isNumeric() ? p.getIntValue() : pid;
                    case "tid" -> tid = v.isNumeric() ? p.getIntValue() : tid;
                    case "ts" -> ts = v.isNumeric() ? p.getDoubleValue() : ts;
                    case "dur" -> dur = v.isNumeric() ? p.getDoubleValue() : dur;
                    case "args" -> args(p, v);
                    default -> p.skipChildren();
                }
            }
            if (ph == null) {
                return;
            }
            NodeTrace node = nodes.computeIfAbsent(pid, k -> new NodeTrace(file, k));
            switch (ph) {
                case "X" -> {
                    if (!Double.isNaN(ts)) {
                        task(node, tid, ts, dur, name, cat);
                    }
                }
                case "B" -> {
                    if (!Double.isNaN(ts)) {
                        open.computeIfAbsent(key(pid, tid), k -> new ArrayDeque<>()).push(new Open(ts, name, cat));
                    }
                }
                case "E" -> {
                    ArrayDeque<Open> stack = open.get(key(pid, tid));
                    if (stack != null && !stack.isEmpty() && !Double.isNaN(ts)) {
                        Open o = stack.pop();
                        task(node, tid, o.ts, ts - o.ts, o.name, o.cat);
                    }
                }
                case "C" -> {
                    if (!Double.isNaN(ts) && name != null) {
                        int numeric = 0;
                        for (int k = 0; k < argCount; k++) {
                            if (argStrings[k] == null) {
                                argKeys[numeric] = argKeys[k];
                                argNumbers[numeric] = argNumbers[k];
                                numeric++;
                            }
                        }
                        node.counter(name).add(ts, argKeys, argNumbers, numeric);
                        count++;
                    }
                }
                case "M" -> metadata(node, tid, name);
                default -> {
                }
            }
        }

        private void task(NodeTrace node, int tid, double ts, double dur, String name, String cat) {
            String n = name == null ? "(unnamed)" : name;
            node.thread(tid).add(ts, dur, names.intern(n, cat));
            for (int k = 0; k < argCount; k++) {
                if (argStrings[k] == null && (argKeys[k].equals("item") || argKeys[k].equals("i")
                        || argKeys[k].equals("j"))) {
                    node.item((int) argNumbers[k]);
                }
            }
            count++;
        }

        private void metadata(NodeTrace node, int tid, String name) {
            if (name == null) {
                return;
            }
            switch (name) {
                case "process_name" -> {
                    String v = stringArg("name");
                    if (v != null) {
                        node.processName(v);
                    }
                }
                case "thread_name" -> {
                    String v = stringArg("name");
                    if (v != null) {
                        node.thread(tid).name(v);
                    }
                }
                case "thread_sort_index" -> {
                    for (int k = 0; k < argCount; k++) {
                        if (argKeys[k].equals("sort_index") && argStrings[k] == null) {
                            node.thread(tid).sortIndex((int) argNumbers[k]);
                        }
                    }
                }
                default -> {
                    return;
                }
            }
            count++;
        }

        private String stringArg(String key) {
            for (int k = 0; k < argCount; k++) {
                if (argKeys[k].equals(key) && argStrings[k] != null) {
                    return argStrings[k];
                }
            }
            return null;
        }

        private void args(JsonParser p, JsonToken v) throws IOException {
            if (v != JsonToken.START_OBJECT) {
                p.skipChildren();
                return;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonToken t = p.nextToken();
                if (argCount < MAX_ARGS && t.isNumeric()) {
                    argKeys[argCount] = key;
                    argNumbers[argCount] = p.getDoubleValue();
                    argStrings[argCount] = null;
                    argCount++;
                } else if (argCount < MAX_ARGS && t == JsonToken.VALUE_STRING) {
                    argKeys[argCount] = key;
                    argNumbers[argCount] = Double.NaN;
                    argStrings[argCount] = p.getText();
                    argCount++;
                } else {
                    p.skipChildren();
                }
            }
        }

        private static long key(int pid, int tid) {
            return ((long) pid << 32) ^ (tid & 0xffffffffL);
        }
    }

    private record Open(double ts, String name, String cat) {
    }
}
