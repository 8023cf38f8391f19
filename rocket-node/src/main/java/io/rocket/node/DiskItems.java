package io.rocket.node;

import io.rocket.cache.disk.DiskCache;
import io.rocket.cache.disk.DiskKey;
import io.rocket.core.DiskCaching;
import io.rocket.core.device.Device;
import io.rocket.core.summary.CacheStats;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node's L4 level: the items of this job in a {@link DiskCache}, in the form the application allows (parsed, or
 * preprocessed for one device kind). Keys name the job (application and options), the form, the item's label and
 * its files' identities, so a changed input or option never finds a stale item.
 */
final class DiskItems {
    private final DiskCache cache;
    private final String job;
    private final DiskCaching form;
    private final String formName;
    /** Misses found by {@link #contains} (read-ahead's check), which the cache itself counts only on reads. */
    private final java.util.concurrent.atomic.LongAdder missesByLookup = new java.util.concurrent.atomic.LongAdder();

    /** @param device the node's device, whose kind names preprocessed entries (a node's devices are of one kind) */
    DiskItems(DiskCache cache, String job, DiskCaching form, Device device) {
        this.cache = cache;
        this.job = job;
        this.form = form;
        this.formName = form == DiskCaching.PREPROCESSED
                ? "preprocessed/" + device.kind().name().toLowerCase(java.util.Locale.ROOT) : "parsed";
    }

    /** Whether entries hold preprocessed items (straight into the host cache) rather than parsed ones. */
    boolean preprocessed() {
        return form == DiskCaching.PREPROCESSED;
    }

    /** The entry key of an item; reads its files' attributes (a stat, remote or not). */
    DiskKey key(String label, List<Path> files) throws IOException {
        return DiskKey.of(job, formName, label, files);
    }

    /**
     * Whether the item has an entry (a stat, not verified); a "no" counts as the level's miss, as the item will be
     * loaded from its files without asking again.
     */
    boolean contains(DiskKey key) {
        boolean found = cache.contains(key);
        if (!found) {
            missesByLookup.increment();
        }
        return found;
    }

    /** The entry's payload into {@code target} from its position; its length, or -1 on a miss. */
    long read(DiskKey key, ByteBuffer target) {
        return cache.read(key, target);
    }

    void write(DiskKey key, ByteBuffer payload) {
        cache.write(key, payload);
    }

    /** The level's counters as the other levels show theirs: entries as slots, hits, misses, evictions. */
    CacheStats stats() {
        DiskCache.Stats s = cache.stats();
        return new CacheStats(s.entries(), 0, s.hits(), s.misses() + missesByLookup.sum(), s.evictions(), 0);
    }

    /** Everything the disk cache counted, for the summary. */
    Map<String, Long> figures() {
        DiskCache.Stats s = cache.stats();
        Map<String, Long> f = new LinkedHashMap<>();
        f.put("hits", s.hits());
        f.put("misses", s.misses() + missesByLookup.sum());
        f.put("writes", s.writes());
        f.put("corrupt", s.corrupt());
        f.put("evictions", s.evictions());
        f.put("bytes_read", s.bytesRead());
        f.put("bytes_written", s.bytesWritten());
        f.put("entries", s.entries());
        f.put("bytes", s.bytes());
        f.put("limit_bytes", cache.maxBytes());
        return f;
    }
}
