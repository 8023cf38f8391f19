package io.rocket.cache;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A test request that records its callbacks and can be awaited. */
class RecordingRequest extends CacheRequest {
    final AtomicInteger granted = new AtomicInteger();
    final AtomicInteger settled = new AtomicInteger();
    final CountDownLatch settledLatch = new CountDownLatch(1);

    RecordingRequest(int... items) {
        super(items.length);
        if (items.length == 1) {
            items(items[0]);
        } else if (items.length == 2) {
            items(items[0], items[1]);
        } else {
            clearItems();
            for (int item : items) {
                add(item);
            }
        }
    }

    @Override
    protected void onGranted() {
        granted.incrementAndGet();
    }

    @Override
    protected void onSettled() {
        settled.incrementAndGet();
        settledLatch.countDown();
    }

    boolean isGranted() {
        return granted.get() > 0;
    }

    boolean isSettled() {
        return settled.get() > 0;
    }

    boolean awaitSettled() throws InterruptedException {
        return settledLatch.await(10, TimeUnit.SECONDS);
    }
}
