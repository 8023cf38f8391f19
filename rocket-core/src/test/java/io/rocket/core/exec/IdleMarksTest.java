package io.rocket.core.exec;

import io.rocket.core.trace.Tracer;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class IdleMarksTest {

    @Test
    void offResourceThread_unknown() {
        assertThat(IdleMarks.takeIdle()).isNull();
    }

    @Test
    void queuedTask_notIdle_afterEmptyQueue_idle() throws Exception {
        ResourceExecutor executor = new ResourceExecutor("k", ThreadKind.KERNEL, 1, Tracer.NOOP);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch firstRunning = new CountDownLatch(1);
        AtomicReference<Boolean> first = new AtomicReference<>();
        AtomicReference<Boolean> queued = new AtomicReference<>();
        executor.execute(() -> {
            first.set(IdleMarks.takeIdle());
            firstRunning.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(firstRunning.await(10, TimeUnit.SECONDS)).isTrue();
        executor.execute(() -> queued.set(IdleMarks.takeIdle()));
        release.countDown();
        executor.close();
        assertThat(first.get()).as("the thread waited for its first task").isTrue();
        assertThat(queued.get()).as("the second task was queued behind the first").isFalse();
    }
}
