package io.rocket.core.exec;

/**
 * Tells code running on a resource thread whether that thread sat idle (found its queue empty) since the last time
 * it asked. The sim device uses it to model a device that never idles while work is queued, independent of how
 * late the operating system happened to wake the thread.
 */
public final class IdleMarks {
    private static final ThreadLocal<boolean[]> MARK = new ThreadLocal<>();

    private IdleMarks() {
    }

    /** Called by a resource thread when it finds no task waiting. */
    static void markIdle() {
        boolean[] mark = MARK.get();
        if (mark == null) {
            MARK.set(new boolean[]{true});
        } else {
            mark[0] = true;
        }
    }

    /** Called by a resource thread at start-up so {@link #takeIdle()} knows it runs on one. */
    static void register() {
        MARK.set(new boolean[]{true});
    }

    /**
     * Whether this thread idled since the previous call (and clears the mark); null when the caller is not a
     * resource thread and so cannot know.
     *
     * @return {@code TRUE} when the calling resource thread found its queue empty since the previous call (or since
     *         it started, for the first call), {@code FALSE} when it did not, null on any other thread
     */
    public static Boolean takeIdle() {
        boolean[] mark = MARK.get();
        if (mark == null) {
            return null;
        }
        boolean idle = mark[0];
        mark[0] = false;
        return idle;
    }
}
