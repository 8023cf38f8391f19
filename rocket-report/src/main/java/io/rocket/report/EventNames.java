package io.rocket.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The task names met in the traces, each with its Chrome category ({@code io}, {@code cpu}, {@code copy},
 * {@code kernel}, {@code net}), numbered in order of appearance so slices store an index instead of a string.
 */
public final class EventNames {
    private final Map<String, Integer> index = new HashMap<>();
    private final List<String> names = new ArrayList<>();
    private final List<String> categories = new ArrayList<>();

    /** The number of {@code name}, adding it (with its category) when new. */
    public int intern(String name, String category) {
        Integer k = index.get(name);
        if (k != null) {
            return k;
        }
        int id = names.size();
        index.put(name, id);
        names.add(name);
        categories.add(category == null ? "" : category);
        return id;
    }

    /** The number of {@code name}, or -1 when no trace has it. */
    public int find(String name) {
        Integer k = index.get(name);
        return k == null ? -1 : k;
    }

    public String name(int id) {
        return names.get(id);
    }

    public String category(int id) {
        return categories.get(id);
    }

    public int size() {
        return names.size();
    }
}
