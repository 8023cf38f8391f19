package io.rocket.results.journal;

import io.rocket.core.Application;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What makes two runs the same job, so that one may resume the other's journal: the application's name, its
 * options (as the caller describes them), the items' labels in order, and each input file's name, size and
 * modification time. Each part is kept apart, so a refusal can say which one differs.
 *
 * @param app     the application's name
 * @param options the application's options, one per line
 * @param items   the number of items
 * @param labels  a digest of the items' labels in order
 * @param inputs  a digest of the input files' names, sizes and modification times, in key order
 */
record JobIdentity(String app, List<String> options, int items, String labels, String inputs) {

    /** The identity of {@code app} over {@code keys}; stats every input file once. */
    static <K> JobIdentity of(Application<K, ?> app, List<K> keys, String options) {
        MessageDigest labels = sha256();
        MessageDigest inputs = sha256();
        for (K key : keys) {
            update(labels, app.label(key));
            for (Path file : app.inputFiles(key)) {
                Path name = file.getFileName();
                update(inputs, name == null ? file.toString() : name.toString());
                update(inputs, stat(file));
            }
            update(inputs, "");
        }
        List<String> lines = options.isEmpty() ? List.of() : List.of(options.split("\n"));
        return new JobIdentity(app.name(), lines, keys.size(), hex(labels), hex(inputs));
    }

    /**
     * The identity of the job alone, without its items: a result store's, whose items come and go while the job
     * stays the same (its results are keyed by each item's identity instead).
     */
    static JobIdentity ofJob(String app, String options) {
        List<String> lines = options.isEmpty() ? List.of() : List.of(options.split("\n"));
        return new JobIdentity(app, lines, 0, "-", "-");
    }

    private static String stat(Path file) {
        try {
            return Files.size(file) + " " + Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return "unreadable"; // the item fails to load, in every run alike
        }
    }

    /**
     * What differs between a journal's identity ({@code this}) and the run's, in a few words, or null when they
     * are the same job.
     */
    String differenceFrom(JobIdentity run) {
        return differenceFrom(run, "journal");
    }

    /** As {@link #differenceFrom(JobIdentity)}, naming where this identity was read ("journal", "store"). */
    String differenceFrom(JobIdentity run, String where) {
        if (!app.equals(run.app)) {
            return "its application is " + app + ", not " + run.app;
        }
        if (items != run.items) {
            return "it has " + items + " items, this run " + run.items;
        }
        if (!labels.equals(run.labels)) {
            return "its item names differ";
        }
        String optionDifference = optionDifference(options, run.options, where);
        if (optionDifference != null) {
            return "its options differ: " + optionDifference;
        }
        if (!inputs.equals(run.inputs)) {
            return "its input files differ: a file's size or modification time changed";
        }
        return null;
    }

    /**
     * The first option whose value differs, or null when none does. Options are compared by name
     * ({@code --name=value} lines; a line without {@code =}, such as the command, stands for itself), whatever
     * their order; an option one side lacks and one it has as {@code null} are both not given, and the same.
     * The difference reads {@code --seed=5 in the store, --seed=6 now}, or for an option not given on one side
     * {@code --max-residues: not given in the store, 20000 now}.
     */
    static String optionDifference(List<String> stored, List<String> run, String where) {
        Map<String, String> then = byName(stored);
        Map<String, String> now = byName(run);
        Set<String> names = new LinkedHashSet<>(then.keySet());
        names.addAll(now.keySet());
        for (String name : names) {
            boolean bare = name.endsWith("="); // a line without a value, as the command's name
            String a = bare ? then.get(name) : given(then.get(name));
            String b = bare ? now.get(name) : given(now.get(name));
            if (Objects.equals(a, b)) {
                continue;
            }
            if (bare) {
                return (a == null ? "(none)" : a) + " in the " + where + ", " + (b == null ? "(none)" : b) + " now";
            }
            if (a != null && b != null) {
                return name + "=" + a + " in the " + where + ", " + name + "=" + b + " now";
            }
            return name + ": " + (a == null ? "not given" : a) + " in the " + where + ", "
                    + (b == null ? "not given" : b) + " now";
        }
        return null;
    }

    /**
     * Option lines by name, in order: {@code --name=value} as name and value; a line without {@code =} as itself
     * followed by {@code =} (a name no option has), with itself as value. A name given twice has its values joined
     * by a line break.
     */
    private static Map<String, String> byName(List<String> lines) {
        Map<String, String> map = new LinkedHashMap<>();
        for (String line : lines) {
            int equals = line.indexOf('=');
            map.merge(equals < 0 ? line + "=" : line.substring(0, equals),
                    equals < 0 ? line : line.substring(equals + 1), (a, b) -> a + "\n" + b);
        }
        return map;
    }

    /** A value as given, or null for an option not given (absent, or {@code null} as the job options print it). */
    private static String given(String value) {
        return value == null || value.equals("null") ? null : value;
    }

    /**
     * This identity without the option lines of {@code names}: options that change no result, which a store made
     * before they were marked so still names.
     */
    JobIdentity withoutOptions(Set<String> names) {
        if (names.isEmpty()) {
            return this;
        }
        List<String> kept = new ArrayList<>();
        for (String line : options) {
            int equals = line.indexOf('=');
            if (equals < 0 || !names.contains(line.substring(0, equals))) {
                kept.add(line);
            }
        }
        return new JobIdentity(app, List.copyOf(kept), items, labels, inputs);
    }

    /** A short digest of the whole identity, for the header and logs. */
    String digest() {
        MessageDigest d = sha256();
        update(d, app);
        update(d, Integer.toString(items));
        update(d, labels);
        update(d, inputs);
        options.forEach(line -> update(d, line));
        return hex(d);
    }

    private static void update(MessageDigest digest, String text) {
        digest.update(text.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) '\n');
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(MessageDigest digest) {
        return HexFormat.of().formatHex(Arrays.copyOf(digest.digest(), 16));
    }

    /** Reads the identity back from header lines; lines of other keys are skipped. */
    static JobIdentity fromLines(List<String> lines) throws IOException {
        String app = null;
        String labels = null;
        String inputs = null;
        int items = -1;
        List<String> options = new ArrayList<>();
        for (String line : lines) {
            int space = line.indexOf(' ');
            String key = space < 0 ? line : line.substring(0, space);
            String value = space < 0 ? "" : line.substring(space + 1);
            switch (key) {
                case "app" -> app = value;
                case "labels" -> labels = value;
                case "inputs" -> inputs = value;
                case "option" -> options.add(value);
                case "items" -> {
                    try {
                        items = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        throw new IOException("bad item count '" + value + "'");
                    }
                }
                default -> {
                }
            }
        }
        if (app == null || labels == null || inputs == null || items < 0) {
            throw new IOException("the header lacks the job's identity");
        }
        return new JobIdentity(app, List.copyOf(options), items, labels, inputs);
    }

    /** The identity as header lines ({@code key value}). */
    List<String> toLines() {
        List<String> lines = new ArrayList<>();
        lines.add("app " + app);
        lines.add("items " + items);
        lines.add("labels " + labels);
        lines.add("inputs " + inputs);
        options.forEach(line -> lines.add("option " + line));
        return lines;
    }
}
