package io.rocket.steal.cluster;

import io.rocket.core.RocketException;
import io.rocket.steal.PairSet;
import org.jgroups.Address;
import org.jgroups.View;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Who is in the run: maps stable ranks to JGroups addresses and data-plane endpoints. Each node announces itself
 * (HELLO: rank, fingerprint, data endpoint, proposed start window) on every view change; a node that knows all P
 * ranks tells rank 0 (READY); rank 0 starts the run for everyone (START) once all P are ready, with the smallest
 * start window proposed, so that all nodes cut the same shares even when their L2 sizes differ, and with the pairs
 * done before (a resumed journal), which no node runs again. A fingerprint
 * differing from rank 0's is refused at once on both sides (REJECT), so nodes given other items or options fail
 * fast. After the start, a rank other than 0 leaving the view (a crash, a kill, a node cut off and excluded by
 * failure detection) is <em>lost</em>: it is reported to the run once, which re-runs its work, and it can never come
 * back into this run. Losing rank 0, which holds the results, fails the run with a clear message.
 */
final class Membership {
    private static final Logger LOG = LoggerFactory.getLogger(Membership.class);

    private final ClusterOptions options;
    private final Wire.Hello self;
    private final Map<Integer, Address> addresses = new ConcurrentHashMap<>();
    private final Map<Integer, InetSocketAddress> dataEndpoints = new ConcurrentHashMap<>();
    private final Map<Integer, Integer> proposedWindows = new ConcurrentHashMap<>();
    private final Set<Integer> ready = ConcurrentHashMap.newKeySet();
    private final Set<Integer> lost = ConcurrentHashMap.newKeySet();
    private final CountDownLatch started = new CountDownLatch(1);
    private final AtomicReference<RocketException> failure = new AtomicReference<>();
    private volatile ClusterChannel channel;
    private volatile boolean sentReady;
    private volatile boolean ending;
    private volatile Runnable rankZeroGone = () -> { };
    private volatile long startEpochMillis;
    private volatile int startWindow;
    private volatile Runnable onFailure = () -> { };
    private volatile IntConsumer onLost = r -> { };
    /** Pairs done before this run (rank 0's resumed journal), deflated; empty when none. */
    private volatile byte[] resumedPairs = new byte[0];

    /** @param window the start window this node proposes (items, at least 1) */
    Membership(ClusterOptions options, InetSocketAddress dataEndpoint, int window) {
        this.options = options;
        this.self = new Wire.Hello(options.rank(), options.nodes(), options.fingerprint(),
                dataEndpoint.getAddress().getHostAddress(), dataEndpoint.getPort(), window);
    }

    /**
     * @param failureHandler runs once when the run fails (rank 0 lost, a join refused)
     * @param lostHandler    runs once per rank lost after the start, on the thread that saw it go
     */
    void attach(ClusterChannel value, Runnable failureHandler, IntConsumer lostHandler) {
        this.channel = value;
        this.onFailure = failureHandler;
        this.onLost = lostHandler;
    }

    /** Announces this node to everyone (again): late joiners missed earlier announcements. */
    void announce() {
        channel.send(null, Wire.encode(Wire.Kind.HELLO, self::write));
    }

    void onHello(Address from, DataInputStream in) throws IOException {
        Wire.Hello hello = Wire.Hello.read(in);
        if (hello.rank() < 0 || hello.rank() >= options.nodes() || hello.nodes() != options.nodes()) {
            reject(from, "rank " + hello.rank() + " of " + hello.nodes() + " does not fit a cluster of "
                    + options.nodes() + " nodes");
            return;
        }
        if (lost.contains(hello.rank())) {
            reject(from, "rank " + hello.rank() + " was lost from the running job and cannot rejoin it; "
                    + "its work is being done by the other nodes");
            return;
        }
        Address known = addresses.putIfAbsent(hello.rank(), from);
        if (known != null && !known.equals(from)) {
            fail("two nodes claim rank " + hello.rank() + " (" + known + " and " + from + ")");
            return;
        }
        dataEndpoints.put(hello.rank(), new InetSocketAddress(hello.dataHost(), hello.dataPort()));
        proposedWindows.put(hello.rank(), Math.max(1, hello.window()));
        if (!hello.fingerprint().equals(options.fingerprint()) && (options.rank() == 0 || hello.rank() == 0)) {
            String reason = "rank " + (options.rank() == 0 ? hello.rank() : options.rank())
                    + " was given a different item list or options than rank 0 (fingerprints "
                    + (options.rank() == 0 ? hello.fingerprint() + " vs " + options.fingerprint()
                    : options.fingerprint() + " vs " + hello.fingerprint()) + ")";
            // Tell everyone, not just the other side: whichever node notices first, all of them stop at once.
            channel.send(null, Wire.encode(Wire.Kind.REJECT, out -> out.writeUTF(reason)));
            fail(reason);
            return;
        }
        if (!sentReady && addresses.size() == options.nodes() && addresses.containsKey(0)) {
            sentReady = true;
            channel.send(addresses.get(0), Wire.encode(Wire.Kind.READY, out -> out.writeInt(options.rank())));
        }
    }

    void onReady(DataInputStream in) throws IOException {
        ready.add(in.readInt());
        if (options.rank() == 0 && ready.size() == options.nodes() && started.getCount() > 0) {
            // Every rank is READY, so rank 0 has every rank's HELLO and its proposal.
            int window = proposedWindows.values().stream().min(Integer::compare).orElse(self.window());
            channel.send(null, Wire.encode(Wire.Kind.START, out -> {
                out.writeLong(System.currentTimeMillis());
                out.writeInt(window);
                Wire.writeBytes(out, resumedPairs);
            }));
        }
    }

    void onStart(DataInputStream in) throws IOException {
        startEpochMillis = in.readLong();
        startWindow = in.readInt();
        resumedPairs = Wire.readBytes(in);
        started.countDown();
    }

    /** Rank 0, before it connects: the pairs its START tells every node to skip ({@link PairSet#toCompressed}). */
    void resumedPairs(byte[] compressed) {
        resumedPairs = compressed;
    }

    /** The pairs to skip, from rank 0's START (valid once {@link #awaitStart} returned). */
    byte[] resumedPairs() {
        return resumedPairs;
    }

    /** The start window of the run, from rank 0's START (valid once {@link #awaitStart} returned). */
    int startWindow() {
        return startWindow;
    }

    /** Rank 0's wall clock when it started the run, for aligning traces. */
    long startEpochMillis() {
        return startEpochMillis;
    }

    void onReject(DataInputStream in) throws IOException {
        fail(in.readUTF());
    }

    private void reject(Address to, String reason) {
        channel.send(to, Wire.encode(Wire.Kind.REJECT, out -> out.writeUTF(reason)));
    }

    void onView(View view) {
        if (ending) {
            Address zero = addresses.get(0);
            if (options.rank() != 0 && zero != null && !view.containsMember(zero)) {
                rankZeroGone.run();
            }
            return;
        }
        if (started.getCount() > 0) {
            Address coordinator = addresses.get(0);
            if (options.rank() != 0 && coordinator != null && !view.containsMember(coordinator)) {
                fail("rank 0 left before the run started (its log says why)");
            }
            return;
        }
        for (Map.Entry<Integer, Address> e : addresses.entrySet()) {
            if (view.containsMember(e.getValue())) {
                continue;
            }
            if (e.getKey() == 0) {
                fail("rank 0 (" + e.getValue() + "), which collects the results, was lost; the run stops. Run the "
                        + "same command with --resume to continue from rank 0's journal (--journal DIR)");
                return;
            }
            markLost(e.getKey());
        }
    }

    /** Takes {@code rank} out of the run for good (it left the view, or rank 0 says so). */
    void markLost(int rank) {
        if (rank != options.rank() && rank != 0 && lost.add(rank)) {
            LOG.warn("cluster: rank {} ({}) was lost; its unfinished work will be done by the others", rank,
                    addresses.get(rank));
            onLost.accept(rank);
        }
    }

    /** Whether {@code rank}'s address is in the current view. */
    boolean inView(int rank) {
        Address address = addresses.get(rank);
        View view = channel.view();
        return address != null && view != null && view.containsMember(address);
    }

    boolean isLost(int rank) {
        return lost.contains(rank);
    }

    /** Whether a message from {@code address} comes from a lost rank (and is to be ignored). */
    boolean fromLost(Address address) {
        if (lost.isEmpty()) {
            return false;
        }
        int rank = rankOf(address);
        return rank >= 0 && lost.contains(rank);
    }

    /** Ranks lost so far. */
    Set<Integer> lost() {
        return Set.copyOf(lost);
    }

    /** The ranks still in the run, in order (this one included). */
    List<Integer> living() {
        List<Integer> living = new ArrayList<>();
        for (int r = 0; r < options.nodes(); r++) {
            if (!lost.contains(r)) {
                living.add(r);
            }
        }
        return living;
    }

    /**
     * From now on departures are expected (the run is over). On ranks above 0, {@code rankZeroGone} runs when rank 0
     * leaves: it leaves only after confirming the end to everyone, and its confirmation can arrive after the view
     * that no longer lists it, when the group drops it as coming from a non-member.
     */
    void ending(Runnable rankZeroGone) {
        this.rankZeroGone = rankZeroGone;
        ending = true;
        View now = channel.view();
        if (now != null) {
            onView(now);
        }
    }

    private void fail(String reason) {
        if (failure.compareAndSet(null, new RocketException("cluster: " + reason))) {
            LOG.error("cluster: {}", reason);
            started.countDown();
            onFailure.run();
        }
    }

    /** Waits for START; throws the reason when joining failed or timed out. */
    void awaitStart() throws InterruptedException {
        long deadline = System.nanoTime() + options.joinTimeout().toNanos();
        while (!started.await(200, TimeUnit.MILLISECONDS)) {
            if (System.nanoTime() > deadline) {
                Set<Integer> missing = new TreeSet<>();
                for (int r = 0; r < options.nodes(); r++) {
                    if (!addresses.containsKey(r)) {
                        missing.add(r);
                    }
                }
                throw new RocketException("cluster: only " + addresses.size() + " of " + options.nodes()
                        + " nodes joined within " + options.joinTimeout().toSeconds() + " s (missing ranks "
                        + missing + ")");
            }
            announce();
        }
        checkFailure();
    }

    void checkFailure() {
        RocketException e = failure.get();
        if (e != null) {
            throw e;
        }
    }

    boolean failed() {
        return failure.get() != null;
    }

    /** The address of a rank in the run, or null (not joined yet, or lost). */
    Address address(int rank) {
        return lost.contains(rank) ? null : addresses.get(rank);
    }

    /** The data-plane endpoint of a rank in the run, or null (not joined yet, or lost). */
    InetSocketAddress dataEndpoint(int rank) {
        return lost.contains(rank) ? null : dataEndpoints.get(rank);
    }

    int rankOf(Address address) {
        for (Map.Entry<Integer, Address> e : addresses.entrySet()) {
            if (e.getValue().equals(address)) {
                return e.getKey();
            }
        }
        return -1;
    }
}
