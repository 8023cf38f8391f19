package io.rocket.results.journal;

import io.rocket.core.ItemException;
import io.rocket.core.ItemTooLargeException;
import io.rocket.core.ResultSink;

import java.util.function.IntUnaryOperator;

/**
 * The sink a journal or a result store puts in front of the run's own: hands each result on and adds it to the next
 * record, under one lock with that record, so a record never holds a result the sink has not seen. When the record is
 * full the writer is woken. The journal records pairs by run index, the store by its own item ids; {@code ids} maps
 * one to the other (made once, so nothing is allocated per pair). The store leaves out the pairs that failed because
 * an item did not fit the run's buffers ({@link ItemTooLargeException}): a later run with larger buffers computes
 * them; the journal, tied to one job's options, keeps them like any failure.
 *
 * @param <K> the application's key type
 * @param <R> the application's result type
 */
final class RecordingSink<K, R> implements ResultSink<K, R> {
    private final ResultSink<K, R> next;
    private final Object lock;
    private final PairBatch<R> batch;
    private final int items;
    private final IntUnaryOperator ids;
    private final Runnable recordFull;
    private final boolean keepsTooLarge;

    /**
     * @param next       the run's own sink
     * @param lock       the lock that guards {@code batch}
     * @param batch      the record being filled
     * @param items      the run's items (indices 0..items-1)
     * @param ids        a run index to the id the record holds
     * @param recordFull wakes the writer
     * @param keepsTooLarge whether pairs that failed for an item too large for the run's buffers are recorded
     */
    RecordingSink(ResultSink<K, R> next, Object lock, PairBatch<R> batch, int items, IntUnaryOperator ids,
                  Runnable recordFull, boolean keepsTooLarge) {
        this.next = next;
        this.lock = lock;
        this.batch = batch;
        this.items = items;
        this.ids = ids;
        this.recordFull = recordFull;
        this.keepsTooLarge = keepsTooLarge;
    }

    @Override
    public void accept(int i, int j, K left, K right, R result) {
        boolean full;
        synchronized (lock) {
            next.accept(i, j, left, right, result);
            full = batch.result(ids.applyAsInt(i), ids.applyAsInt(j), result);
        }
        if (full) {
            recordFull.run();
        }
    }

    @Override
    public void failed(int i, int j, K left, K right, Throwable error) {
        boolean full;
        synchronized (lock) {
            next.failed(i, j, left, right, error);
            if (!keepsTooLarge && ItemTooLargeException.isCause(error)) {
                return; // not this pair's result: a run with larger buffers computes it
            }
            // The item that could not be loaded, when that is why the pair failed: the record keeps its message.
            int item = error instanceof ItemException e && e.item() >= 0 && e.item() < items
                    ? ids.applyAsInt(e.item()) : -1;
            full = batch.failure(ids.applyAsInt(i), ids.applyAsInt(j), error, item);
        }
        if (full) {
            recordFull.run();
        }
    }
}
