package io.rocket.steal;

/**
 * Where the scheduler announces the leaves it is about to run, rows {@code [r0, r1)} against columns
 * {@code [c0, c1)}, so the node can read their items' files ahead while the devices compute.
 */
@FunctionalInterface
public interface UpcomingItems {
    /** Announces nothing. */
    UpcomingItems NONE = (r0, r1, c0, c1) -> { };

    void upcoming(int r0, int r1, int c0, int c1);
}
