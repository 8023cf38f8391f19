package io.rocket.runtime;

import io.rocket.core.RocketException;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The parts of a run that must be let go when it ends, closed in the reverse of the order they were registered (a
 * part is closed before the parts it was built on). Every part is closed even when an earlier one fails: the first
 * failure is thrown with the others suppressed, so a run that fails keeps its first cause. An interrupt while
 * closing does not cut the closing short; the thread's interrupt flag is set again once everything is closed.
 */
final class Resources implements AutoCloseable {
    /** One thing to let go; it may throw anything. */
    @FunctionalInterface
    public interface Part {
        void close() throws Exception;
    }

    private final Deque<Part> parts = new ArrayDeque<>();

    /** Creates an empty stack. */
    public Resources() {
    }

    /** Registers {@code part} to be closed before everything registered earlier; returns it. */
    public <T extends AutoCloseable> T add(T part) {
        if (part != null) {
            onClose(part::close);
        }
        return part;
    }

    /** Registers an action to run at close, before the actions registered earlier. */
    public synchronized void onClose(Part part) {
        parts.push(part);
    }

    @Override
    public void close() {
        Throwable first = null;
        boolean interrupted = false;
        while (true) {
            Part part;
            synchronized (this) {
                part = parts.poll();
            }
            if (part == null) {
                break;
            }
            try {
                part.close();
            } catch (InterruptedException e) {
                interrupted = true;
                first = collect(first, e);
            } catch (Throwable e) {
                first = collect(first, e);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (first instanceof Error e) {
            throw e;
        }
        if (first != null) {
            throw (RuntimeException) first;
        }
    }

    /** The first failure, unchecked (so that what follows is suppressed on what is thrown), with {@code next} added. */
    private static Throwable collect(Throwable first, Throwable failure) {
        Throwable next = failure instanceof RuntimeException || failure instanceof Error ? failure
                : new RocketException("closing the run failed: " + failure, failure);
        if (first == null) {
            return next;
        }
        if (first != next) {
            first.addSuppressed(next);
        }
        return first;
    }
}
