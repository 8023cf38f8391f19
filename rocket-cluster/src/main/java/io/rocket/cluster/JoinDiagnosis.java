package io.rocket.cluster;

import org.jgroups.Address;
import org.jgroups.View;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The one line a node prints when the cluster did not form within the join timeout: which ranks are missing and
 * what last kept them out, as far as this node can tell (no group found, a join unanswered, ranks unheard of, heard
 * of but outside this node's view, or not yet seeing every rank).
 */
final class JoinDiagnosis {
    private JoinDiagnosis() {
    }

    /**
     * "rank 2 is missing (last: ...)".
     *
     * @param in         whether this node's channel has joined the group
     * @param missing    the ranks this node cannot count on yet
     * @param addresses  the ranks this node has heard from
     * @param lastReason what last kept the cluster from forming, empty when nothing yet
     */
    static String describe(ClusterChannel channel, boolean in, Set<Integer> missing, Map<Integer, Address> addresses,
                           String lastReason) {
        return missingPhrase(missing) + " (last: " + reason(channel, in, missing, addresses, lastReason) + ")";
    }

    private static String missingPhrase(Set<Integer> missing) {
        if (missing.isEmpty()) {
            return "every rank is in the view, but rank 0 did not start the run";
        }
        return (missing.size() == 1 ? "rank " + ranks(missing) + " is" : "ranks " + ranks(missing) + " are")
                + " missing";
    }

    /** "1, 2, 5" */
    static String ranks(java.util.Collection<Integer> ranks) {
        StringBuilder b = new StringBuilder();
        for (int r : ranks) {
            b.append(b.length() == 0 ? "" : ", ").append(r);
        }
        return b.toString();
    }

    /** What keeps {@code missing} out. */
    private static String reason(ClusterChannel channel, boolean in, Set<Integer> missing,
                                 Map<Integer, Address> addresses, String lastReason) {
        if (!in) {
            int tries = channel.joinTries();
            return tries == 0 ? "this node found no group to join"
                    : "this node's request to join " + channel.joinCoordinator() + " got no answer (" + tries
                    + (tries == 1 ? " try)" : " tries)");
        }
        View view = channel.view();
        List<String> why = new ArrayList<>();
        Set<Integer> unheard = new TreeSet<>();
        Set<Integer> outside = new TreeSet<>();
        Set<Integer> unready = new TreeSet<>();
        for (int r : missing) {
            Address a = addresses.get(r);
            if (a == null) {
                unheard.add(r);
            } else if (view == null || !view.containsMember(a)) {
                outside.add(r);
            } else {
                unready.add(r);
            }
        }
        if (!unheard.isEmpty()) {
            why.add("no announcement from rank" + (unheard.size() == 1 ? " " : "s ") + ranks(unheard));
        }
        if (!outside.isEmpty()) {
            why.add("rank" + (outside.size() == 1 ? " " : "s ") + ranks(outside) + " announced but not in this node's "
                    + "view of " + (view == null ? 0 : view.size()) + " members");
        }
        if (!unready.isEmpty()) {
            why.add("rank" + (unready.size() == 1 ? " " : "s ") + ranks(unready) + " do not see every rank yet");
        }
        if (!lastReason.isEmpty()) {
            why.add(lastReason);
        }
        if (why.isEmpty()) {
            why.add("no START from rank 0");
        }
        return String.join("; ", why);
    }
}
