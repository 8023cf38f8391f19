package io.rocket.cluster;

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
 * Who is in the run: maps stable ranks to JGroups addresses and data-plane endpoints, and decides when the cluster
 * has formed. Each node announces itself (HELLO: rank, fingerprint, data endpoint, proposed start window) to its view
 * until the run starts. A node that knows all P ranks <em>and has all of them in its current view</em> tells rank 0
 * (READY), again with every announcement until the run starts, so that a READY lost in a view change is sent again.
 * Rank 0 starts the run for everyone (START) once every rank is READY and in rank 0's own current view (a START
 * reaches exactly the members of that view), with the smallest start window proposed, so that all nodes cut the
 * same shares even when their L2 sizes differ, and with the pairs done before (a resumed journal), which no node runs
 * again; a rank that asks again after the start (it missed the START in a view change) gets it once more. The whole
 * join, from connecting on, is bounded by {@code --join-timeout}: then the node fails with one line naming the ranks
 * still missing and why (rank 0 sends its line to all, so that every node stops with the same one). A fingerprint
 * differing from rank 0's is refused at once on both sides (REJECT), so nodes given other items or options fail
 * fast. After the start, a rank other than 0 leaving the view (a crash, a kill, a node cut off and excluded by
 * failure detection) is <em>lost</em>: it is reported to the run once, which re-runs its work, and it can never come
 * back into this run. Losing rank 0, which holds the results, fails the run with a clear message.
 */
public final class Membership {
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
    private volatile Rejects rejects;
    /** Whether this node's channel has joined the group (its connect returned). */
    private volatile boolean connected;
    /** What last kept the cluster from forming, for the line of a join that timed out; empty when nothing yet. */
    private volatile String lastReason = "";
    /** Rank 0: the START it sent, to send again to a rank that missed it; null before. */
    private volatile byte[] startMessage;
    private volatile boolean ending;
    /** Ranks above 0, once the run started: notices this process standing still; null before. */
    private volatile PauseWatch pauses;
    private volatile Runnable rankZeroGone = () -> { };
    private volatile long startEpochMillis;
    private volatile int startWindow;
    private volatile Runnable onFailure = () -> { };
    private volatile IntConsumer onLost = r -> { };
    /** Pairs done before this run (rank 0's resumed journal), deflated; empty when none. */
    private volatile byte[] resumedPairs = new byte[0];
    /** Whether rank 0 shows the job's status (an endpoint, an event log, a status directory), from its START. */
    private volatile boolean statusShown;
    /** Rank 0: what must be done once every rank is in and before START (opening shared outputs); null: nothing. */
    private volatile BeforeStart beforeStart;
    /** Rank 0: every rank is READY and in the view, and START waits for {@link #beforeStart}. */
    private volatile boolean formed;

    /** Rank 0's work between the cluster forming and its START; it runs on the thread waiting for the start. */
    @FunctionalInterface
    public interface BeforeStart {
        /**
         * Runs once, when every rank is in.
         *
         * @throws Exception when the run cannot start; its message ends the run on every node
         */
        void run() throws Exception;
    }

    /**
     * Rank 0: runs {@code work} once every rank has joined and before START, so that what it prepares (the shared
     * output files the other ranks write into) is there before any rank computes, and a cluster that never forms
     * has touched nothing. Call it before {@link #awaitStart}.
     *
     * @param work what to run; a failure ends the run on every node with its message
     */
    public void beforeStart(BeforeStart work) {
        this.beforeStart = work;
    }

    /** @param window the start window this node proposes (items, at least 1) */
    public Membership(ClusterOptions options, InetSocketAddress dataEndpoint, int window) {
        this.options = options;
        this.self = new Wire.Hello(options.rank(), options.nodes(), options.fingerprint(),
                dataEndpoint.getAddress().getHostAddress(), dataEndpoint.getPort(), window);
    }

    /**
     * @param failureHandler runs once when the run fails (rank 0 lost, a join refused)
     * @param lostHandler    runs once per rank lost after the start, on the thread that saw it go
     */
    public void attach(ClusterChannel value, Runnable failureHandler, IntConsumer lostHandler) {
        this.channel = value;
        this.rejects = new Rejects(value);
        this.onFailure = failureHandler;
        this.onLost = lostHandler;
    }

    /** Takes the messages of joining and leaving: HELLO, READY, START, REJECT and its answer, and view changes. */
    public void register(ControlDispatcher control) {
        control.register(Wire.Kind.HELLO, this::onHello);
        control.register(Wire.Kind.READY, this::onReady);
        control.register(Wire.Kind.START, (from, in) -> onStart(in));
        control.register(Wire.Kind.REJECT, this::onReject);
        control.register(Wire.Kind.REJECT_SEEN, (from, in) -> rejects.seen(from));
        control.onViewChange(this::onView);
    }

    /** Announces this node to everyone (again): late joiners missed earlier announcements. */
    void announce() {
        channel.send(null, Wire.encode(Wire.Kind.HELLO, self::write));
    }

    void onHello(Address from, DataInputStream in) throws IOException {
        Wire.Hello hello = Wire.Hello.read(in);
        if (hello.rank() < 0 || hello.rank() >= options.nodes() || hello.nodes() != options.nodes()) {
            rejects.to(from, "rank " + hello.rank() + " of " + hello.nodes() + " does not fit a cluster of "
                    + options.nodes() + " nodes");
            return;
        }
        if (lost.contains(hello.rank())) {
            rejects.to(from, "rank " + hello.rank() + " was lost from the running job and cannot rejoin it; "
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
            rejects.toAll(reason);
            fail(reason);
            return;
        }
        byte[] again = startMessage;
        if (again != null) {
            channel.send(from, again); // the run started without this node hearing it: it missed the START
            return;
        }
        sendReadyIfFormed();
    }

    /**
     * Tells rank 0 this node is ready when it knows every rank and has every one of them in its current view. Sent
     * with every announcement until the run starts: a READY sent before a view change can be lost in it.
     */
    private void sendReadyIfFormed() {
        if (started.getCount() == 0 || !connected || !missing(channel.view()).isEmpty()) {
            return;
        }
        channel.send(addresses.get(0), Wire.encode(Wire.Kind.READY, out -> out.writeInt(options.rank())));
    }

    /**
     * The ranks this node cannot count on yet: not heard from, or heard from but not in {@code view}; on rank 0 also
     * those that do not yet see every other rank (not READY).
     */
    private Set<Integer> missing(View view) {
        Set<Integer> missing = new TreeSet<>();
        for (int r = 0; r < options.nodes(); r++) {
            Address a = addresses.get(r);
            if (a == null || view == null || !view.containsMember(a)
                    || (options.rank() == 0 && r != 0 && !ready.contains(r))) {
                missing.add(r);
            }
        }
        return missing;
    }

    void onReady(Address from, DataInputStream in) throws IOException {
        int rank = in.readInt();
        if (rank < 0 || rank >= options.nodes()) {
            return;
        }
        byte[] again = startMessage;
        if (again != null) {
            channel.send(from, again); // still asking: it missed the START
            return;
        }
        ready.add(rank);
        maybeStart();
    }

    /**
     * Rank 0: starts the run once every rank is READY and in rank 0's current view, the only nodes a START cast
     * to the group reaches. Called on every READY, view change and tick of the wait, on whichever thread.
     */
    private synchronized void maybeStart() {
        if (options.rank() != 0 || startMessage != null || started.getCount() == 0 || !connected
                || !missing(channel.view()).isEmpty()) {
            return;
        }
        if (beforeStart != null) {
            formed = true; // the waiting thread runs it, then starts: not on a receive thread, not under this lock
            return;
        }
        // Every rank is READY, so rank 0 has every rank's HELLO and its proposal.
        int window = proposedWindows.values().stream().min(Integer::compare).orElse(self.window());
        byte[] start = Wire.encode(Wire.Kind.START, out -> {
            out.writeLong(System.currentTimeMillis());
            out.writeInt(window);
            Wire.writeBytes(out, resumedPairs);
            out.writeBoolean(statusShown);
        });
        startMessage = start;
        channel.send(null, start);
    }

    void onStart(DataInputStream in) throws IOException {
        if (started.getCount() == 0) {
            return; // a START sent again to a node that had it already
        }
        startEpochMillis = in.readLong();
        startWindow = in.readInt();
        resumedPairs = Wire.readBytes(in);
        statusShown = in.readBoolean();
        started.countDown();
    }

    /** Rank 0, before it connects: the pairs its START tells every node to skip ({@link PairSet#toCompressed}). */
    public void resumedPairs(byte[] compressed) {
        resumedPairs = compressed;
    }

    /**
     * Rank 0, before it connects: whether it shows the job's status, so the other ranks sample and send theirs only
     * then.
     */
    public void statusShown(boolean shown) {
        statusShown = shown;
    }

    /** Whether rank 0 shows the job's status, from its START (valid once {@link #awaitStart} returned). */
    public boolean statusShown() {
        return statusShown;
    }

    /** The pairs to skip, from rank 0's START (valid once {@link #awaitStart} returned). */
    public byte[] resumedPairs() {
        return resumedPairs;
    }

    /** The start window of the run, from rank 0's START (valid once {@link #awaitStart} returned). */
    public int startWindow() {
        return startWindow;
    }

    /** Rank 0's wall clock when it started the run, for aligning traces. */
    public long startEpochMillis() {
        return startEpochMillis;
    }

    void onReject(Address from, DataInputStream in) throws IOException {
        String reason = in.readUTF();
        rejects.confirm(from);
        if (reason.startsWith(NOT_FORMED)) {
            joinFailed(new RocketException("cluster: " + reason)); // one line, printed where the run fails
        } else {
            fail(reason);
        }
    }

    /**
     * Before this node leaves: waits, at most {@code timeoutMillis}, until a REJECT it sent to all has reached every
     * member it was sent to, so that the other nodes stop with its reason rather than see it vanish.
     */
    boolean awaitRejectsSeen(long timeoutMillis) throws InterruptedException {
        Rejects r = rejects;
        return r == null || r.awaitSeen(timeoutMillis);
    }

    void onView(View view) {
        if (failed()) {
            return; // the run is over: nodes leaving now are no news
        }
        if (ending) {
            Address zero = addresses.get(0);
            if (options.rank() != 0 && zero != null && !view.containsMember(zero)) {
                rankZeroGone.run();
            }
            return;
        }
        if (started.getCount() > 0) {
            // Before the start, views come and go as nodes join, are suspected under load and merge back: nothing
            // is final until the join deadline. Rank 0 stopping on purpose says so to all (REJECT).
            Address coordinator = addresses.get(0);
            if (options.rank() != 0 && coordinator != null && !view.containsMember(coordinator)) {
                lastReason = "rank 0 left this node's view (" + view.size() + " members)";
            }
            return;
        }
        if (stoodStill()) {
            return; // this node is the one the others lost: it stops, and the nodes it sees go are no news
        }
        for (Map.Entry<Integer, Address> e : addresses.entrySet()) {
            if (view.containsMember(e.getValue())) {
                continue;
            }
            if (e.getKey() == 0) {
                // Rank 0 may have died, or be cut off from this node only and finish the job without it: this node
                // cannot tell, and says so rather than contradict the job's outcome, which is rank 0's.
                failPlain("rank " + options.rank() + " lost rank 0 (" + e.getValue() + "), which collects the "
                        + "results, and stops; the job's outcome is rank 0's: see its log (if rank 0 did not finish "
                        + "the job, run the same command with --resume to continue from its journal, --journal DIR)");
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
    public Set<Integer> lost() {
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

    /** Fails the run with {@code line} as it is: the one line the node stops with. */
    private void failPlain(String line) {
        if (failure.compareAndSet(null, new RocketException(line))) {
            LOG.debug("cluster: {}", line);
            started.countDown();
            onFailure.run();
        }
    }

    /**
     * After the start, on ranks above 0: watches for this process standing still (SIGSTOP, a suspended machine) for
     * the failure timeout or longer. The other nodes have excluded it then, and rank 0 has its work done again: it
     * stops with one line rather than compute on for nobody. Rank 0 goes on after such a stop (the job is its own;
     * the ranks it lost are recovered from). Close the watch when the node stops.
     */
    public AutoCloseable watchPauses() {
        if (options.rank() == 0) {
            return () -> { };
        }
        PauseWatch watch = new PauseWatch(options.failureTimeout(), millis -> stoodStill());
        pauses = watch;
        return watch;
    }

    /**
     * Whether this node stood still for the failure timeout or longer during the run (then it fails the run saying
     * it was excluded, once).
     */
    private boolean stoodStill() {
        PauseWatch watch = pauses;
        if (watch == null || options.rank() == 0 || ending || started.getCount() > 0) {
            return false;
        }
        long millis = watch.longestMillis();
        if (millis < options.failureTimeout().toMillis()) {
            return false;
        }
        failPlain("rank " + options.rank() + " was excluded from the cluster (it did not answer for "
                + Math.round(millis / 1000.0) + " s); rank 0 finishes the job without it");
        return true;
    }

    /** Told on rank 0, while it waits for the cluster to form, which ranks are missing and for how long. */
    @FunctionalInterface
    public interface Waiting {
        void waiting(List<Integer> missing, long waitedMillis, long timeoutMillis);
    }

    /** The start of the line of a cluster that did not form in time (a REJECT with it is not logged again). */
    static final String NOT_FORMED = "the cluster did not form within ";

    /** This node's channel has joined the group: from now on it announces itself. */
    void connected() {
        if (failed()) {
            return;
        }
        connected = true;
        announce();
    }

    /** Joining the group failed (refused at join, say): the run fails with {@code e} unless it failed already. */
    void joinFailed(RocketException e) {
        if (failure.compareAndSet(null, e)) {
            started.countDown();
            onFailure.run();
        }
    }

    /**
     * Waits until the run starts, at most {@code --join-timeout} after {@code beganNanos} (when connecting began):
     * then throws one line naming the missing ranks and what last kept them out, and rank 0 sends that line to
     * every node it can reach. Announces this node (and READY, and on rank 0 START) on every tick, and tells
     * {@code waiting} how it goes. Throws the reason when joining failed.
     */
    public void awaitStart(long beganNanos, Waiting waiting) throws InterruptedException {
        long timeout = options.joinTimeout().toNanos();
        while (!started.await(TICK_MILLIS, TimeUnit.MILLISECONDS)) {
            long waited = System.nanoTime() - beganNanos;
            boolean in = connected;
            Set<Integer> missing = missing(in ? channel.view() : null);
            missing.remove(options.rank());
            if (waited >= timeout) {
                String line = NOT_FORMED + options.joinTimeout().toSeconds() + " s: "
                        + JoinDiagnosis.describe(channel, in, missing, addresses, lastReason);
                if (options.rank() == 0 && in) {
                    // Every node then stops with the same line, rather than each after its own deadline.
                    rejects.toAll(line);
                }
                joinFailed(new RocketException("cluster: " + line));
                break;
            }
            if (in) {
                announce(); // nodes that joined the view since the last tick have not heard this one
                sendReadyIfFormed();
                maybeStart();
                if (formed && !runBeforeStart()) {
                    break;
                }
            }
            waiting.waiting(List.copyOf(missing), TimeUnit.NANOSECONDS.toMillis(waited),
                    TimeUnit.NANOSECONDS.toMillis(timeout));
        }
        checkFailure();
    }

    private static final long TICK_MILLIS = 200;

    /** Rank 0: runs the work before START, then starts; false when it failed (the run then ends for all). */
    private boolean runBeforeStart() {
        BeforeStart work = beforeStart;
        try {
            work.run();
        } catch (Exception e) {
            String line = "cannot start: " + e.getMessage();
            rejects.toAll(line);
            joinFailed(new RocketException("cluster: " + line, e));
            return false;
        }
        beforeStart = null;
        formed = false;
        maybeStart();
        return true;
    }

    /** After the start: ranks that left the view while the run was starting are lost now. */
    public void reconcile() {
        View now = channel.view();
        if (now != null) {
            onView(now);
        }
    }

    public void checkFailure() {
        RocketException e = failure.get();
        if (e != null) {
            throw e;
        }
    }

    boolean failed() {
        return failure.get() != null;
    }

    /** The address of a rank in the run, or null (not joined yet, or lost). */
    public Address address(int rank) {
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
