package io.rocket.core.exec;

import io.rocket.core.trace.Tracer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

class ResourceExecutorTest {

    @Test
    void singleThread_runsInSubmissionOrder_andCountsTasks() {
        List<Integer> seen = Collections.synchronizedList(new ArrayList<>());
        ResourceExecutor executor = new ResourceExecutor("k", ThreadKind.KERNEL, 1, Tracer.NOOP);
        for (int k = 0; k < 10_000; k++) {
            int value = k;
            executor.execute(() -> seen.add(value));
        }
        executor.close();
        assertThat(seen).hasSize(10_000).isSorted();
        assertThat(executor.taskCount()).isEqualTo(10_000);
        assertThat(executor.busyNanos()).isPositive();
    }

    @Test
    void failingTask_doesNotStopTheThread() {
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        ResourceExecutor executor = new ResourceExecutor("cpu", ThreadKind.CPU, 2, Tracer.NOOP);
        executor.execute(() -> {
            throw new IllegalStateException("boom");
        });
        executor.execute(() -> seen.add("after"));
        executor.close();
        assertThat(seen).containsExactly("after");
    }

    @Test
    void urgentTasks_runBeforeQueuedOrdinaryOnes_inTheirOwnOrder() throws InterruptedException {
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        ResourceExecutor executor = new ResourceExecutor("k", ThreadKind.KERNEL, 1, Tracer.NOOP);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch busy = new CountDownLatch(1);
        executor.execute(() -> {
            busy.countDown();
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        busy.await();
        executor.execute(() -> seen.add("compare 1"));
        executor.execute(() -> seen.add("compare 2"));
        executor.executeUrgent(() -> seen.add("load 1"));
        executor.executeUrgent(() -> seen.add("load 2"));
        assertThat(executor.queued()).isEqualTo(4);
        gate.countDown();
        executor.close();
        assertThat(seen).containsExactly("load 1", "load 2", "compare 1", "compare 2");
    }
}
