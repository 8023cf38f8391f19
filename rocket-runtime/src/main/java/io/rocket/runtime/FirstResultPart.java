package io.rocket.runtime;

import io.rocket.cluster.NodePart;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A rank's part of a shared output, opened by its first result: the stream that drives it exists before the
 * cluster forms, the files it writes (a dense matrix rank 0 creates) only after START. Until then it has no files and
 * marks none.
 *
 * @param <K> key type
 * @param <R> result type
 */
final class FirstResultPart<K, R> implements NodePart<K, R> {
    /** Opens the part. */
    @FunctionalInterface
    interface Opener<K, R> {
        NodePart<K, R> open() throws IOException;
    }

    private static final long[] NONE = new long[0];
    private final Opener<K, R> opener;
    /** Set once, under the stream's lock (every call but {@link #sync} comes under it). */
    private volatile NodePart<K, R> part;

    FirstResultPart(Opener<K, R> opener) {
        this.opener = opener;
    }

    private NodePart<K, R> part() {
        NodePart<K, R> p = part;
        if (p == null) {
            try {
                p = opener.open();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            part = p;
        }
        return p;
    }

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        part().accept(i, j, left, right, result);
    }

    @Override
    public void failed(int i, int j, K left, K right, Throwable error) {
        part().failed(i, j, left, right, error);
    }

    @Override
    public long[] mark() throws IOException {
        NodePart<K, R> p = part;
        return p == null ? NONE : p.mark();
    }

    @Override
    public void sync() throws IOException {
        NodePart<K, R> p = part;
        if (p != null) {
            p.sync();
        }
    }

    @Override
    public void close() throws Exception {
        NodePart<K, R> p = part;
        if (p != null) {
            p.close();
        }
    }
}
