package io.rocket.steal.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
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
