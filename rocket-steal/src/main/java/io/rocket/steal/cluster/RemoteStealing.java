package io.rocket.steal.cluster;

import io.rocket.steal.Region;
import io.rocket.steal.WorkScheduler;
import org.jgroups.Address;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The second level of hierarchical stealing: when no worker of this node has a region left to start (see
 * {@link WorkScheduler#wantsWork}), the steal agent asks a random other rank for its largest region (the victim
 * splits it when it is its last), with exponential back-off after empty replies. Requests time out, so a lost reply costs a retry, not a hang. Victims
 * answer on the receive thread: taking a region is a few locked deque operations, never user code.
 */
final class RemoteStealing implements AutoCloseable {
    private static final long REPLY_TIMEOUT_MILLIS = 500;
    private static final long MIN_BACKOFF_NANOS = 100_000;
    private static final long MAX_BACKOFF_NANOS = 2_000_000;

    private final ClusterOptions options;
    private final Membership membership;
    private final ClusterChannel channel;
    private final WorkScheduler scheduler;
    private final AtomicLong nextId = new AtomicLong();
    private final LongAdder attempts = new LongAdder();
    private final LongAdder successes = new LongAdder();
    private final LongAdder lent = new LongAdder();
    private final Thread agent;
    private volatile CompletableFuture<List<Region>> pending;
    private volatile long pendingId = -1;
    private volatile boolean running = true;

    RemoteStealing(ClusterOptions options, Membership membership, ClusterChannel channel, WorkScheduler scheduler) {
        this.options = options;
        this.membership = membership;
        this.channel = channel;
        this.scheduler = scheduler;
        this.agent = new Thread(this::loop, "rocket-steal-agent-" + options.rank());
        agent.setDaemon(true);
    }

    void start() {
        if (options.nodes() > 1) {
            agent.start();
        }
    }

    private void loop() {
        long backoff = MIN_BACKOFF_NANOS;
        while (running) {
            if (!scheduler.wantsWork()) {
                LockSupport.parkNanos(200_000);
                continue;
            }
            int victim = ThreadLocalRandom.current().nextInt(options.nodes() - 1);
            if (victim >= options.rank()) {
                victim++;
            }
            Address address = membership.address(victim);
            if (address == null) {
                LockSupport.parkNanos(backoff);
                continue;
            }
            long id = nextId.incrementAndGet();
            CompletableFuture<List<Region>> reply = new CompletableFuture<>();
            pending = reply;
            pendingId = id;
            attempts.increment();
            channel.send(address, Wire.encode(Wire.Kind.STEAL_REQUEST, out -> out.writeLong(id)));
            List<Region> regions;
            try {
                regions = reply.get(REPLY_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                regions = List.of();
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                regions = List.of();
            }
            if (!regions.isEmpty()) {
                successes.increment();
                scheduler.give(regions);
                backoff = MIN_BACKOFF_NANOS;
            } else {
                LockSupport.parkNanos(backoff);
                backoff = Math.min(backoff * 2, MAX_BACKOFF_NANOS);
            }
        }
    }

    /** A thief asks: give the largest region we have, or nothing. */
    void onRequest(Address from, DataInputStream in) throws IOException {
        long id = in.readLong();
        List<Region> regions = scheduler.stealForRemote();
        lent.add(regions.size());
        channel.send(from, Wire.encode(Wire.Kind.STEAL_REPLY, out -> {
            out.writeLong(id);
            Wire.writeRegions(out, regions);
        }));
    }

    void onReply(DataInputStream in) throws IOException {
        long id = in.readLong();
        List<Region> regions = Wire.readRegions(in);
        CompletableFuture<List<Region>> reply = pending;
        if (id == pendingId && reply != null) {
            reply.complete(regions);
        } else if (!regions.isEmpty()) {
            // A reply that arrived after its timeout still carries work that is now ours: keep it.
            scheduler.give(regions);
        }
    }

    long attempts() {
        return attempts.sum();
    }

    long successes() {
        return successes.sum();
    }

    long lent() {
        return lent.sum();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        agent.interrupt();
        if (agent.isAlive()) {
            agent.join(2_000);
        }
    }
}
