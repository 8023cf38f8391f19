package io.rocket.report;

import com.fasterxml.jackson.databind.JsonNode;

/** Null-tolerant reads of summary fields: a missing field or a missing parent gives null. */
final class Json {
    private Json() {
    }

    /** The node at {@code path} (field names), or null. */
    static JsonNode at(JsonNode root, String... path) {
        JsonNode n = root;
        for (String p : path) {
            if (n == null || !n.isObject()) {
                return null;
            }
            n = n.get(p);
        }
        return n == null || n.isNull() || n.isMissingNode() ? null : n;
    }

    static Double real(JsonNode root, String... path) {
        JsonNode n = at(root, path);
        return n != null && n.isNumber() ? n.asDouble() : null;
    }

    static Long whole(JsonNode root, String... path) {
        JsonNode n = at(root, path);
        return n != null && n.isNumber() ? n.asLong() : null;
    }

    static long whole(JsonNode root, long fallback, String... path) {
        Long v = whole(root, path);
        return v == null ? fallback : v;
    }

    static String text(JsonNode root, String... path) {
        JsonNode n = at(root, path);
        return n != null && n.isTextual() ? n.asText() : null;
    }

    /** An array at {@code path}, or an empty array node. */
    static Iterable<JsonNode> array(JsonNode root, String... path) {
        JsonNode n = at(root, path);
        return n != null && n.isArray() ? n : java.util.List.of();
    }
}
