package io.rocket.results.journal;

import io.rocket.core.ItemException;
import io.rocket.core.ResultCodec;
import io.rocket.results.PairRecords;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The results that arrived since the last record, in their binary form ({@link PairRecords}), with the items found
 * failed among them: the body of a journal's or a store's record. Items and pairs are named by whatever numbers the
 * caller gives (the journal: item indices; the store: store ids). Not thread-safe: the caller holds its lock.
 *
 * @param <R> result type
 */
final class PairBatch<R> {
    /** A batch this large is written at once, not at the next tick. */
    private static final int EARLY_SYNC_BYTES = 16 << 20;

    private final ResultCodec<R> codec;
    private final int recordPairs;
    private final BitSet itemsNoted = new BitSet();
    private final List<Failure> newItemFailures = new ArrayList<>();
    private ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
    private DataOutputStream out = new DataOutputStream(bytes);
    private int pairs;

    private record Failure(int item, String message) {
    }

    /** @param recordPairs pairs after which a batch is full (the test hook), else {@link Integer#MAX_VALUE} */
    PairBatch(ResultCodec<R> codec, int recordPairs) {
        this.codec = codec;
        this.recordPairs = recordPairs;
    }

    /** Adds a computed pair; true when the batch is full and should be written now. */
    boolean result(int a, int b, R result) {
        try {
            PairRecords.writeResult(out, a, b, result, codec);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return full();
    }

    /**
     * Adds a failed pair; when an item failed to load, notes it once, as {@code item} (the caller's number for
     * the failed item, or -1 for none). True when the batch is full.
     */
    boolean failure(int a, int b, Throwable error, int item) {
        try {
            PairRecords.writeFailure(out, a, b, error);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (error instanceof ItemException && item >= 0 && !itemsNoted.get(item)) {
            itemsNoted.set(item);
            newItemFailures.add(new Failure(item, truncate(error.getMessage())));
        }
        return full();
    }

    private boolean full() {
        return ++pairs >= recordPairs || bytes.size() >= EARLY_SYNC_BYTES;
    }

    boolean isEmpty() {
        return pairs == 0 && newItemFailures.isEmpty();
    }

    /** Writes the failed items, then the pairs ({@code int count} before each), and starts an empty batch. */
    void drainTo(DataOutputStream record) throws IOException {
        record.writeInt(newItemFailures.size());
        for (Failure f : newItemFailures) {
            record.writeInt(f.item());
            record.writeUTF(f.message());
        }
        record.writeInt(pairs);
        bytes.writeTo(record);
        newItemFailures.clear();
        bytes = new ByteArrayOutputStream(Math.max(1 << 16, bytes.size()));
        out = new DataOutputStream(bytes);
        pairs = 0;
    }

    private static String truncate(String message) {
        String m = String.valueOf(message);
        return m.length() > PairRecords.MAX_MESSAGE ? m.substring(0, PairRecords.MAX_MESSAGE) : m;
    }
}
