package io.rocket.cache;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random interleavings of acquire, load completion (publish or fail) and release, single-threaded so jqwik can
 * shrink failures: the invariants hold after every step, a granted LOAD slot is never shared with another item, and
 * once everything is loaded and released every request has been granted and settled.
 */
class SlotCachePropertiesTest {

    @Property(tries = 300)
    void randomOperations_keepInvariants_andEveryRequestCompletes(
            @ForAll @IntRange(min = 2, max = 6) int slots,
            @ForAll @IntRange(min = 2, max = 12) int items,
            @ForAll @Size(min = 1, max = 80) List<@IntRange(min = 0, max = 1_000_000) Integer> choices) {
        SlotCache<int[]> cache = new SlotCache<>("prop", items, slots, 4, s -> new int[]{-1}, new LruPolicy());
        List<RecordingRequest> all = new ArrayList<>();
        List<int[]> pendingLoads = new ArrayList<>(); // {slot, item}
        List<RecordingRequest> settledNotReleased = new ArrayList<>();
        for (int choice : choices) {
            int action = choice % 3;
            int arg = choice / 3;
            if (action == 0) {
                int i = arg % items;
                int j = (i + 1 + (arg / items) % (items - 1)) % items;
                RecordingRequest r = new RecordingRequest(i, j);
                all.add(r);
                cache.acquire(r);
            } else if (action == 1 && !pendingLoads.isEmpty()) {
                int[] load = pendingLoads.remove(arg % pendingLoads.size());
                if (load[1] % 5 == 4) {
                    cache.fail(load[0], new RuntimeException("item " + load[1]));
                } else {
                    cache.buffer(load[0])[0] = load[1];
                    cache.publish(load[0]);
                }
            } else if (action == 2 && !settledNotReleased.isEmpty()) {
                cache.release(settledNotReleased.remove(arg % settledNotReleased.size()));
            }
            collect(all, pendingLoads, settledNotReleased);
            cache.checkInvariants(false);
        }
        // Drain: finish every load and release every settled request until nothing moves.
        while (!pendingLoads.isEmpty() || !settledNotReleased.isEmpty()) {
            while (!pendingLoads.isEmpty()) {
                int[] load = pendingLoads.remove(0);
                cache.buffer(load[0])[0] = load[1];
                cache.publish(load[0]);
            }
            collect(all, pendingLoads, settledNotReleased);
            while (!settledNotReleased.isEmpty()) {
                cache.release(settledNotReleased.remove(0));
            }
            collect(all, pendingLoads, settledNotReleased);
        }
        for (RecordingRequest r : all) {
            assertThat(r.granted.get()).isEqualTo(1);
            assertThat(r.settled.get()).isEqualTo(1);
        }
        cache.checkInvariants(true);
    }

    /** Moves newly granted LOAD duties and newly settled requests into the work lists. */
    private static void collect(List<RecordingRequest> all, List<int[]> loads, List<RecordingRequest> settled) {
        for (RecordingRequest r : all) {
            if (r.isGranted() && r.granted.get() == 1 && !Boolean.TRUE.equals(seen(r, "granted"))) {
                mark(r, "granted");
                for (int p = 0; p < r.count(); p++) {
                    if (r.grant(p) == Grant.LOAD) {
                        loads.add(new int[]{r.slot(p), r.item(p)});
                    }
                }
            }
            if (r.isSettled() && !Boolean.TRUE.equals(seen(r, "settled"))) {
                mark(r, "settled");
                for (int p = 0; p < r.count(); p++) {
                    assertThat(r.error(p) == null || r.item(p) % 5 == 4).isTrue();
                }
                settled.add(r);
            }
        }
    }

    private static final java.util.Map<RecordingRequest, java.util.Set<String>> MARKS =
            java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    private static Boolean seen(RecordingRequest r, String what) {
        return MARKS.getOrDefault(r, java.util.Set.of()).contains(what);
    }

    private static void mark(RecordingRequest r, String what) {
        MARKS.computeIfAbsent(r, k -> new java.util.HashSet<>()).add(what);
    }
}
