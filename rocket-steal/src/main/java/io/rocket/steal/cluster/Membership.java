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
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Who is in the run: maps stable ranks to JGroups addresses and data-plane endpoints. Each node announces itself
 * (HELLO: rank, fingerprint, data endpoint, proposed start window) on every view change; a node that knows all P
 * ranks tells rank 0 (READY); rank 0 starts the run for everyone (START) once all P are ready, with the smallest
 * start window proposed, so that all nodes cut the same shares even when their L2 sizes differ, and with the pairs
 * done before (a resumed journal), which no node runs again. A fingerprint
 * differing from rank 0's is refused at once on both sides (REJECT), so nodes given other items or options fail
 * fast. After the start, a rank leaving the view before the run is over fails the run with a clear message instead
 * of hanging.
 */
final class Membership {
    private static final Logger LOG = LoggerFactory.getLogger(Membership.class);

    private final ClusterOptions options;
    private final Wire.Hello self;
    private final Map<Integer, Address> addresses = new ConcurrentHashMap<>();
    private final Map<Integer, InetSocketAddress> dataEndpoints = new ConcurrentHashMap<>();
    private final Map<Integer, Integer> proposedWindows = new ConcurrentHashMap<>();
    private final Set<Integer> ready = ConcurrentHashMap.newKeySet();
    private final CountDownLatch started = new CountDownLatch(1);
    private final AtomicReference<RocketException> failure = new AtomicReference<>();
    private volatile ClusterChannel channel;
    private volatile boolean sentReady;
    private volatile boolean ending;
    private volatile Runnable rankZeroGone = () -> { };
    private volatile long startEpochMillis;
    private volatile int startWindow;
    private volatile Runnable onFailure = () -> { };
    /** Pairs done before this run (rank 0's resumed journal), deflated; empty when none. */
    private volatile byte[] resumedPairs = new byte[0];

    /** @param window the start window this node proposes (items, at least 1) */
    Membership(ClusterOptions options, InetSocketAddress dataEndpoint, int window) {
        this.options = options;
        this.self = new Wire.Hello(options.rank(), options.nodes(), options.fingerprint(),
                dataEndpoint.getAddress().getHostAddress(), dataEndpoint.getPort(), window);
    }

    void attach(ClusterChannel value, Runnable failureHandler) {
        this.channel = value;
        this.onFailure = failureHandler;
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
            if (!view.containsMember(e.getValue())) {
                fail("rank " + e.getKey() + " (" + e.getValue() + ") left the cluster before the run finished; "
                        + "a lost node stops the run in this version");
                return;
            }
        }
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

    Address address(int rank) {
        return addresses.get(rank);
    }

    InetSocketAddress dataEndpoint(int rank) {
        return dataEndpoints.get(rank);
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
