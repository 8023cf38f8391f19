package io.rocket.core.summary;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Counters of one cache level, summed over its instances (all devices for L1).
 *
 * @param slots     number of slots
 * @param slotBytes size of one slot
 * @param hits      requests served by a slot already holding (or loading) the item
 * @param misses    requests that had to load the item into the level
 * @param evictions slots reassigned to another item
 * @param waits     requests that waited for an item another job was loading
 */
public record CacheStats(long slots, @JsonProperty("slot_bytes") long slotBytes, long hits, long misses,
                         long evictions, long waits) {

    /**
     * The sum of two levels' counters (same slot size).
     *
     * @param o the other level's or instance's counters, never null
     * @return a new record with every count summed and the larger of the two slot sizes
     */
    public CacheStats plus(CacheStats o) {
        return new CacheStats(slots + o.slots, Math.max(slotBytes, o.slotBytes), hits + o.hits, misses + o.misses,
                evictions + o.evictions, waits + o.waits);
    }

    /**
     * Hits over requests, 0 when there were none.
     *
     * @return {@code hits / (hits + misses)}, from 0 to 1
     */
    @JsonProperty("hit_rate")
    public double hitRate() {
        long requests = hits + misses;
        return requests == 0 ? 0 : (double) hits / requests;
    }
}
