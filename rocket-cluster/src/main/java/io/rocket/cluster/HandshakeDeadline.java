package io.rocket.cluster;

import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The time a data-plane connection has to complete its handshake, on both sides: a connection still in its
 * handshake when the time is up is closed, so a silent or slow peer (or a stray connection) cannot hold a thread.
 */
final class HandshakeDeadline implements AutoCloseable {
    static final long DEFAULT_MILLIS = 5000;
    private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "rocket-data-watchdog");
        t.setDaemon(true);
        return t;
    });
    private volatile long millis = DEFAULT_MILLIS;

    long millis() {
        return millis;
    }

    /** Sets the time for handshakes that start from now on (tests shorten it). */
    void millis(long value) {
        millis = value;
    }

    /** Closes {@code channel} when the time is up; cancel the returned future once its handshake ends. */
    ScheduledFuture<?> arm(SocketChannel channel) {
        return watchdog.schedule(() -> ChannelIo.quietlyClose(channel), millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Why a handshake failed: the deadline, when it {@code fired} or the channel was closed under the handshake
     * (only the deadline closes it then; the read can fail before the deadline's task counts as done), else
     * {@code error}.
     */
    String reason(boolean fired, Exception error) {
        return fired || error instanceof ClosedChannelException ? "no handshake within " + millis + " ms"
                : error.getMessage();
    }

    @Override
    public void close() {
        watchdog.shutdownNow();
    }
}
