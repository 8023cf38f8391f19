package io.rocket.cache;

import io.rocket.core.summary.CacheStats;

import java.util.BitSet;

/**
 * What a {@link SlotCache} counts for the run's summary: lookups that hit, missed or waited for a load in flight, and
 * the items it was ever asked for. Not thread-safe: the cache calls it under its own lock.
 */
final class CacheCounters {
    private long hits;
    private long misses;
    private long waits;
    /**
     * Items the cache was ever asked for, for the run's "items needed". The cache starts empty, so an item's first
     * request is always a miss: marking them there sees them all.
     */
    private final BitSet requested;

    CacheCounters(int items) {
        this.requested = new BitSet(items);
    }

    void hit() {
        hits++;
    }

    /** Lookups served elsewhere on pins this cache gave (a row of cached pairs: two per pair). */
    void hits(long count) {
        hits += count;
    }

    void miss(int item) {
        misses++;
        requested.set(item);
    }

    void waited() {
        waits++;
    }

    BitSet requested() {
        return (BitSet) requested.clone();
    }

    CacheStats stats(int capacityItems, long slotBytes, long evictions) {
        return new CacheStats(capacityItems, slotBytes, hits, misses, evictions, waits);
    }
}
