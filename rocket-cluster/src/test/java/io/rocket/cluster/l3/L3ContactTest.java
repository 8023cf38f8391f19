package io.rocket.cluster.l3;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contact role alone: its lists hold the h newest requests, a rank once, newest first; a request is forwarded
 * down the old list or answered MISS; a DROP removes exactly its listing; a lost rank leaves the lists and the
 * contacts.
 */
class L3ContactTest {
    private static final int NODES = 4;

    /** Records what the contact sends. */
    private static final class Sent implements L3Transport {
        final List<Object[]> messages = new ArrayList<>();

        @Override
        public void sendControl(int rank, L3Message message) {
            messages.add(new Object[]{rank, message});
        }

        @Override
        public void sendData(int rank, long requestId, int item, int hop, ByteBuffer data, int length, Runnable done) {
            throw new AssertionError("the contact sends no data");
        }

        L3Message last(int toRank) {
            Object[] m = messages.get(messages.size() - 1);
            assertThat(m[0]).isEqualTo(toRank);
            return (L3Message) m[1];
        }
    }

    private static long id(int rank, long n) {
        return ((long) rank << L3Message.RANK_SHIFT) | n;
    }

    private static L3Message request(int rank, long n, int item) {
        return new L3Message(L3Message.Kind.REQUEST, id(rank, n), item, rank, 0, L3Contact.NONE);
    }

    @Test
    void listsKeepTheNewestHopsRequests_aRankOnce_newestFirst() {
        Sent sent = new Sent();
        L3Contact contact = new L3Contact(NODES, 10, 2, sent);
        contact.onRequest(request(1, 1, 5));
        assertThat(sent.last(1).kind()).as("nobody listed yet").isEqualTo(L3Message.Kind.MISS);
        contact.onRequest(request(2, 1, 5));
        L3Message forward = sent.last(1);
        assertThat(forward.kind()).isEqualTo(L3Message.Kind.FORWARD);
        assertThat(forward.candidates()).containsExactly(id(1, 1));
        assertThat(forward.hop()).isEqualTo(1);
        contact.onRequest(request(3, 1, 5));
        assertThat(contact.candidates(5)).as("at most h").containsExactly(id(3, 1), id(2, 1));
        assertThat(sent.last(2).candidates()).containsExactly(id(2, 1), id(1, 1));
        contact.onRequest(request(3, 2, 5));
        assertThat(contact.candidates(5)).as("a rank once").containsExactly(id(3, 2), id(2, 1));
        assertThat(sent.last(2).candidates()).as("never asks the requester itself").containsExactly(id(2, 1));
    }

    @Test
    void aDropRemovesOnlyItsListing() {
        L3Contact contact = new L3Contact(NODES, 10, 3, new Sent());
        contact.list(7, id(1, 1), 1);
        contact.list(7, id(2, 1), 2);
        contact.onDrop(new L3Message(L3Message.Kind.DROP, id(1, 9), 7, 1, 0, L3Contact.NONE));
        assertThat(contact.candidates(7)).as("a newer listing's drop is not this one").hasSize(2);
        contact.onDrop(new L3Message(L3Message.Kind.DROP, id(1, 1), 7, 1, 0, L3Contact.NONE));
        assertThat(contact.candidates(7)).containsExactly(id(2, 1));
        contact.onDrop(new L3Message(L3Message.Kind.DROP, id(1, 1), 99, 1, 0, L3Contact.NONE)); // out of range
    }

    @Test
    void aLostRankLeavesTheListsAndTheContacts() {
        L3Contact contact = new L3Contact(NODES, 10, 3, new Sent());
        contact.list(6, id(1, 1), 1);
        contact.list(6, id(2, 1), 2);
        assertThat(contact.contact(6)).isEqualTo(2);
        assertThat(contact.memberLost(2)).isTrue();
        assertThat(contact.memberLost(2)).as("once").isFalse();
        assertThat(contact.candidates(6)).containsExactly(id(1, 1));
        assertThat(contact.contact(6)).as("a living rank, the same on every node").isEqualTo(new int[]{0, 1, 3}[6 % 3]);
        contact.homes(item -> 3);
        assertThat(contact.contact(6)).isEqualTo(3);
    }

    @Test
    void outOfRangeRequestsAreIgnored() {
        Sent sent = new Sent();
        L3Contact contact = new L3Contact(NODES, 10, 1, sent);
        contact.onRequest(request(1, 1, 10));
        contact.onRequest(new L3Message(L3Message.Kind.REQUEST, id(1, 1), 3, NODES, 0, L3Contact.NONE));
        assertThat(sent.messages).isEmpty();
    }
}
