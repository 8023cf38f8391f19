package io.rocket.cluster.l3;

import io.rocket.cache.CacheRequest;
import io.rocket.cache.Grant;
import io.rocket.cache.LruPolicy;
import io.rocket.cache.SlotCache;
import io.rocket.node.RemoteItems;
import io.rocket.core.HostBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The L3 protocol between three nodes whose messages go through one queue that the test delivers by hand, so each
 * interleaving is exact. (Whole clusters over JGroups and the data plane are tested in the cluster tests.)
 */
class DistributedCacheTest {
    private static final int NODES = 3;
    private static final int ITEMS = 12;
    private static final int ITEM = 3; // its contact is rank 0
    private static final int BYTES = 16;

    private final Queue<Runnable> network = new ArrayDeque<>();
    private final Node[] nodes = new Node[NODES];

    @AfterEach
    void close() {
        for (Node node : nodes) {
            if (node != null) {
                node.l3.close();
            }
        }
    }

    private void nodes(int slots) {
        for (int r = 0; r < NODES; r++) {
            nodes[r] = new Node(r, slots);
        }
    }

    private void deliverAll() {
        Runnable message;
        while ((message = network.poll()) != null) {
            message.run();
        }
    }

    /**
     * Three nodes ask for one item in turn while the first is still loading it. Each is sent to the one that asked
     * just before it: node 2 waits for node 1's load, node 0 waits for node 2's fetch (the one node 2 was listed
     * with), and the item travels down the chain. Both later requesters hit at the first hop; nobody loads twice.
     */
    @Test
    void requestsForAnItemUnderWay_waitDownTheChain_andAllHitAtTheFirstHop() {
        nodes(4);
        Fetcher first = nodes[1].fetch(ITEM);
        deliverAll();
        assertThat(first.missed).isTrue(); // nobody had it: node 1 loads it (and takes its time)
        Fetcher second = nodes[2].fetch(ITEM);
        deliverAll();
        Fetcher third = nodes[0].fetch(ITEM);
        deliverAll();
        assertThat(second.fetched || second.missed).isFalse();
        assertThat(third.fetched || third.missed).isFalse();

        first.loadLocally();
        deliverAll();

        assertThat(second.fetched).isTrue();
        assertThat(third.fetched).isTrue();
        assertThat(third.bytes()).isEqualTo(first.bytes());
        assertThat(nodes[2].l3.stats().hitsAtHop(1)).isEqualTo(1);
        assertThat(nodes[0].l3.stats().hitsAtHop(1)).isEqualTo(1);
        assertThat(nodes[1].l3.stats().served()).isEqualTo(1);
        assertThat(nodes[2].l3.stats().served()).isEqualTo(1);
        for (Node node : nodes) {
            assertThat(node.l3.stats().timeouts()).isZero();
        }
    }

    /**
     * The home of an item (its contact, here named by the schedule) needs it while nobody is listed: it loads it at
     * once, without a message and without counting an L3 request, and is listed, so the next node's request is sent
     * to it, waits for that load and hits at the first hop. When the home needs the item again after evicting it, it
     * asks the newest candidate directly: one FORWARD, no REQUEST to itself.
     */
    @Test
    void homeOfAnItem_loadsItWithoutARequest_andTheOthersFindItAtTheFirstHop() {
        nodes(2);
        for (Node node : nodes) {
            node.l3.homes(item -> 2);
        }
        Fetcher home = nodes[2].fetch(ITEM);
        assertThat(home.missed).isTrue();
        assertThat(network).isEmpty();
        assertThat(nodes[2].l3.stats().homeLoads()).isEqualTo(1);
        assertThat(nodes[2].l3.stats().requests()).isZero();

        Fetcher other = nodes[1].fetch(ITEM);
        deliverAll();
        assertThat(other.fetched || other.missed).isFalse(); // waits for the home's load
        home.loadLocally();
        deliverAll();
        assertThat(other.fetched).isTrue();
        assertThat(other.bytes()).isEqualTo(home.bytes());
        assertThat(nodes[1].l3.stats().hitsAtHop(1)).isEqualTo(1);
        assertThat(nodes[2].l3.stats().served()).isEqualTo(1);

        home.release();
        nodes[2].fetch(ITEM + 1).loadLocally();
        nodes[2].fetch(ITEM + 2).loadLocally(); // two slots: the home evicted the item
        nodes[2].releaseAll();
        deliverAll(); // its eviction notice: the home's own listing is dropped
        Fetcher again = nodes[2].fetch(ITEM);
        // The notice for item 4, evicted to make room, then the FORWARD to node 1, the newest candidate.
        assertThat(network).hasSize(2);
        deliverAll();
        assertThat(again.fetched).isTrue();
        assertThat(nodes[2].l3.stats().requests()).isEqualTo(1);
        assertThat(nodes[2].l3.stats().hitsAtHop(1)).isEqualTo(1);
        assertThat(nodes[2].l3.stats().homeLoads()).isEqualTo(3); // items 3, 4 and 5, each the first time
    }

    /**
     * A node is asked for an item while it fetches that item again itself, with a request that reached the contact
     * after the one it is asked to serve. Waiting could close a cycle (the other node may be waiting for it), so it
     * passes the request on at once: a miss, and the asker loads, instead of both waiting for their timeouts.
     */
    @Test
    void candidateWithANewerFetchOfTheItem_passesTheRequestOn_insteadOfWaiting() {
        nodes(2);
        nodes[1].loseDrops = true; // its eviction notice is lost (L3 messages may be): the contact still lists it
        Fetcher old = nodes[1].fetch(ITEM);
        deliverAll();
        old.loadLocally();
        old.release();
        nodes[1].fetch(ITEM + 1).loadLocally();
        nodes[1].fetch(ITEM + 2).loadLocally(); // two slots: item 3 is evicted from node 1
        nodes[1].releaseAll();

        Fetcher asker = nodes[2].fetch(ITEM);  // reaches the contact first: sent to node 1 (listed with its old fetch)
        Fetcher again = nodes[1].fetch(ITEM);  // reaches it second: sent to node 2, which asked just before
        deliverAll();

        assertThat(asker.missed).isTrue();
        assertThat(again.fetched).isFalse(); // node 2 waits for its own load, which it is allowed to: it came earlier
        asker.loadLocally();
        deliverAll();
        assertThat(again.fetched).isTrue();
        assertThat(again.bytes()).isEqualTo(asker.bytes());
        for (Node node : nodes) {
            assertThat(node.l3.stats().timeouts()).isZero();
        }
    }

    /** After serving an item, a node evicts that copy before the items it uses itself: the asker now has one. */
    @Test
    void servedCopy_isTheNextToBeEvicted() {
        nodes(2);
        Fetcher mine = nodes[1].fetch(ITEM);
        deliverAll();
        mine.loadLocally();
        mine.release();
        Fetcher own = nodes[1].fetch(ITEM + 1);
        deliverAll();
        own.loadLocally();
        own.release(); // node 1's recency: item 3, then item 4

        Fetcher remote = nodes[2].fetch(ITEM);
        deliverAll();
        assertThat(remote.fetched).isTrue();
        Fetcher next = nodes[1].fetch(ITEM + 2);
        deliverAll();
        next.loadLocally();
        assertThat(nodes[1].l2.contains(ITEM)).isFalse();
        assertThat(nodes[1].l2.contains(ITEM + 1)).isTrue();
    }

    /**
     * At the end of a run a node stops serving: it waits for the serve still sending (its L2 pin held until the
     * bytes are out), and passes later requests on, so its L2 is idle when it is checked and closed.
     */
    @Test
    void stopServing_waitsForTheServeUnderWay_andPassesLaterRequestsOn() throws InterruptedException {
        nodes(2);
        Fetcher mine = nodes[1].fetch(ITEM);
        deliverAll();
        mine.loadLocally();
        mine.release();
        nodes[1].holdSends = true;
        Fetcher remote = nodes[2].fetch(ITEM);
        deliverAll();
        assertThat(nodes[1].l3.stats().served()).isEqualTo(1);
        assertThat(nodes[1].l3.stopServing(20)).as("the send still holds its pin").isFalse();

        nodes[1].sent.poll().run();
        assertThat(nodes[1].l3.stopServing(1_000)).isTrue();
        nodes[1].l2.checkInvariants(true);
        deliverAll();
        assertThat(remote.fetched).isTrue();
        remote.release();

        nodes[2].l3.stopServing(1_000);
        Fetcher late = nodes[0].fetch(ITEM); // the contact sends it to node 2, which has the item but stopped
        deliverAll();
        assertThat(late.missed).isTrue();
        assertThat(nodes[2].l3.stats().served()).isZero();
        nodes[2].l2.checkInvariants(true);
    }

    /**
     * A node that evicts an item it is listed for tells the contact, which takes it off the list: the next request
     * is answered MISS by the contact at once, not passed to a node that no longer has the item.
     */
    @Test
    void evictedItem_isDroppedFromTheContactsList_soTheNextRequestMissesAtOnce() {
        nodes(2);
        evictAfterLoading(nodes[1], ITEM);
        deliverAll();

        Fetcher next = nodes[2].fetch(ITEM);
        deliverAll();
        assertThat(next.missed).isTrue();
        assertThat(nodes[1].l3.stats().forwarded()).isZero(); // never asked
        assertThat(nodes[2].l3.stats().misses()).isEqualTo(1);
    }

    /**
     * An eviction notice names the listing it ends: when it reaches the contact after the same node asked for the
     * item again, the newer listing stays, and the next requester is still sent to that node.
     */
    @Test
    void lateEvictionNotice_leavesTheNodesNewerListing() {
        nodes(2);
        evictAfterLoading(nodes[1], ITEM);
        List<Runnable> late = new ArrayList<>(network); // the notice, held back
        network.clear();
        Fetcher again = nodes[1].fetch(ITEM);
        deliverAll(); // a MISS: node 1 is listed with this newer request
        assertThat(again.missed).isTrue();
        late.forEach(Runnable::run);
        deliverAll();

        Fetcher next = nodes[2].fetch(ITEM);
        deliverAll();
        assertThat(next.fetched || next.missed).isFalse(); // sent to node 1, which waits for its load
        again.loadLocally();
        deliverAll();
        assertThat(next.fetched).isTrue();
        assertThat(nodes[2].l3.stats().hitsAtHop(1)).isEqualTo(1);
    }

    /**
     * Node {@code node} asks for {@code item} (a MISS: it is listed), loads it, then loads two more items, so its
     * two-slot L2 evicts it. The eviction notice is in the test's network, not yet delivered: it left before the
     * request of the load that evicted the item.
     */
    private void evictAfterLoading(Node node, int item) {
        Fetcher first = node.fetch(item);
        deliverAll();
        assertThat(first.missed).isTrue();
        first.loadLocally();
        first.release();
        node.fetch(item + 1).loadLocally();
        node.fetch(item + 2).loadLocally();
        node.releaseAll();
        assertThat(node.l2.contains(item)).isFalse();
    }

    /** One node: its L2 and L3, sending through the test's queue. */
    private final class Node implements L3Transport {
        final int rank;
        final SlotCache<HostBuffer> l2;
        final DistributedCache l3;
        private final Queue<Fetcher> held = new ArrayDeque<>();
        /** When set, a send's completion waits in {@link #sent} for the test to run it. */
        boolean holdSends;
        /** When set, this node's eviction notices are lost on the way. */
        boolean loseDrops;
        final Queue<Runnable> sent = new ArrayDeque<>();

        Node(int rank, int slots) {
            this.rank = rank;
            this.l2 = new SlotCache<>("L2 " + rank, ITEMS, slots, BYTES,
                    s -> new HostBuffer(ByteBuffer.allocateDirect(BYTES)), new LruPolicy());
            this.l3 = new DistributedCache(rank, NODES, ITEMS, 1, 10_000_000_000L, this, l2);
        }

        Fetcher fetch(int item) {
            Fetcher f = new Fetcher(this, item);
            held.add(f);
            l2.acquire(f);
            return f;
        }

        void releaseAll() {
            Fetcher f;
            while ((f = held.poll()) != null) {
                f.release();
            }
        }

        @Override
        public void sendControl(int to, L3Message message) {
            if (loseDrops && message.kind() == L3Message.Kind.DROP) {
                return;
            }
            network.add(() -> nodes[to].l3.onMessage(message));
        }

        @Override
        public void sendData(int to, long requestId, int item, int hop, ByteBuffer data, int length, Runnable done) {
            byte[] copy = new byte[length];
            data.get(0, copy);
            if (holdSends) {
                sent.add(done);
            } else {
                done.run();
            }
            network.add(() -> {
                ByteBuffer target = nodes[to].l3.beginReceive(requestId, item, length);
                if (target != null) {
                    target.put(0, copy);
                }
                nodes[to].l3.endReceive(requestId, hop, length, target != null);
            });
        }
    }

    /** What the pipeline's item load does with L2 and L3: take a slot, fetch into it, or load when told to. */
    private static final class Fetcher extends CacheRequest implements RemoteItems.Callback {
        private final Node node;
        private boolean released;
        boolean fetched;
        boolean missed;

        Fetcher(Node node, int item) {
            super(1);
            this.node = node;
            items(item);
        }

        @Override
        protected void onGranted() {
            if (grant(0) == Grant.LOAD) {
                node.l3.fetch(item(0), node.l2.buffer(slot(0)), this);
            }
        }

        @Override
        protected void onSettled() {
        }

        @Override
        public void fetched() {
            fetched = true;
            node.l2.publish(slot(0));
        }

        @Override
        public void missed() {
            missed = true;
        }

        /** The local load: the item's bytes (its index, repeated, and the loading rank), then publish. */
        void loadLocally() {
            HostBuffer buffer = node.l2.buffer(slot(0));
            for (int k = 0; k < BYTES; k++) {
                buffer.raw().put(k, (byte) (k == 0 ? node.rank : item(0)));
            }
            buffer.length(BYTES);
            node.l2.publish(slot(0));
        }

        byte[] bytes() {
            byte[] out = new byte[BYTES];
            node.l2.buffer(slot(0)).raw().get(0, out);
            return out;
        }

        void release() {
            if (!released) {
                released = true;
                node.held.remove(this);
                node.l2.release(this);
            }
        }
    }
}
