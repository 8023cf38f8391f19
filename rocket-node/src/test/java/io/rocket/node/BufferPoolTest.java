package io.rocket.node;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BufferPoolTest {

    @Test
    void givenBuffers_areLentAndCounted() {
        BufferPool<int[]> pool = new BufferPool<>(List.of(new int[1], new int[1]));
        int[] a = pool.take();
        assertThat(pool.allReturned()).isFalse();
        assertThat(pool.tryTake(1)).isNull(); // one free, none beyond the reserve
        pool.give(a);
        assertThat(pool.allReturned()).isTrue();
        assertThatThrownBy(() -> pool.give(new int[1])).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void onFirstUse_makesBuffersOnlyWhenNoneIsFree_upToTheLimit() throws Exception {
        AtomicInteger made = new AtomicInteger();
        BufferPool<int[]> pool = new BufferPool<>(2, () -> new int[] {made.incrementAndGet()});
        assertThat(made.get()).isZero();
        assertThat(pool.allReturned()).isTrue();

        int[] first = pool.take();
        assertThat(made.get()).isEqualTo(1);
        pool.give(first);
        assertThat(pool.take()).isSameAs(first); // a free buffer is reused before another is made
        assertThat(made.get()).isEqualTo(1);

        int[] second = pool.take();
        assertThat(made.get()).isEqualTo(2);
        assertThat(pool.allReturned()).isFalse();

        // At the limit, take waits for a buffer to come back.
        CompletableFuture<int[]> waiting = CompletableFuture.supplyAsync(pool::take);
        Thread.sleep(50);
        assertThat(waiting).isNotDone();
        pool.give(second);
        assertThat(waiting.get(5, TimeUnit.SECONDS)).isSameAs(second);
        assertThat(made.get()).isEqualTo(2);

        pool.give(first);
        pool.give(second);
        assertThat(pool.allReturned()).isTrue();
        assertThat(pool.size()).isEqualTo(2);
    }

    @Test
    void tryTake_countsBuffersNotYetMadeAsFree() {
        AtomicInteger made = new AtomicInteger();
        BufferPool<int[]> pool = new BufferPool<>(3, () -> new int[] {made.incrementAndGet()});
        int[] a = pool.tryTake(1);
        int[] b = pool.tryTake(1);
        assertThat(a).isNotNull();
        assertThat(b).isNotNull();
        assertThat(pool.tryTake(1)).isNull(); // the last one stays for those that must have one
        assertThat(made.get()).isEqualTo(2);
        assertThat(pool.take()).isNotNull();
        assertThat(made.get()).isEqualTo(3);
    }

    @Test
    void failedAllocation_doesNotUseUpTheLimit() {
        AtomicInteger calls = new AtomicInteger();
        BufferPool<int[]> pool = new BufferPool<>(1, () -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("out of memory");
            }
            return new int[1];
        });
        assertThatThrownBy(pool::take).hasMessage("out of memory");
        assertThat(pool.allReturned()).isTrue();
        int[] buffer = pool.take();
        assertThat(buffer).isNotNull();
        pool.give(buffer);
        assertThat(pool.allReturned()).isTrue();
    }
}
