package io.rocket.core.exec;

import io.rocket.core.trace.Tracer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

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
}
