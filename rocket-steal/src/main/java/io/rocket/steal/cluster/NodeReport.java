package io.rocket.steal.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.Base64;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One node's figures at the end of a cluster run, sent to rank 0 for the summary: what it computed and loaded,
 * its caches, its L3 traffic (hits per hop), data-plane bytes and steals, plus the kernel time sums the
 * performance model needs. Travels as JSON (once per node per run, so size does not matter).
 */
record NodeReport(Map<String, Object> figures) {
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * The items the node's pairs needed, as a set (Base64 of {@link BitSet#toByteArray}): rank 0 needs their union
     * for the cluster's items needed; only travels, never shown.
     */
    static final String ITEMS_NEEDED_SET = "items_needed_set";

    static String encode(BitSet items) {
        return Base64.getEncoder().encodeToString(items.toByteArray());
    }

    /** The node's items needed; empty when it did not say. */
    BitSet itemsNeeded() {
        Object v = figures.get(ITEMS_NEEDED_SET);
        return v instanceof String text ? BitSet.valueOf(Base64.getDecoder().decode(text)) : new BitSet();
    }

    /** The figures as summaries show them (without what only travels). */
    Map<String, Object> published() {
        Map<String, Object> shown = new LinkedHashMap<>(figures);
        shown.remove(ITEMS_NEEDED_SET);
        return shown;
    }

    String toJson() throws IOException {
        return JSON.writeValueAsString(figures);
    }

    @SuppressWarnings("unchecked")
    static NodeReport fromJson(String json) throws IOException {
        return new NodeReport(JSON.readValue(json, LinkedHashMap.class));
    }

    long number(String key) {
        Object v = figures.get(key);
        return v instanceof Number num ? num.longValue() : 0;
    }

    double real(String key) {
        Object v = figures.get(key);
        return v instanceof Number num ? num.doubleValue() : 0;
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> map(String key) {
        Object v = figures.get(key);
        return v instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    @SuppressWarnings("unchecked")
    List<Number> list(String key) {
        Object v = figures.get(key);
        return v instanceof List<?> l ? (List<Number>) l : List.of();
    }
}
