package io.rocket.steal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Idle workers and the watcher on their own: a parked worker stays parked until work arrives, and the watcher is rung
 * when a deque empties. Every wait here has no timer, so a lost wake-up would hang the test.
 */
class WorkerWakeupsTest {

    @Test
    @Timeout(10)
    void aParkedWorker_sleepsUntilWorkArrives() throws Exception {
        AtomicBoolean work = new AtomicBoolean();
        WorkerWakeups wakeups = new WorkerWakeups(2, worker -> worker == 1 && work.get());
        Thread worker = new Thread(() -> {
            try {
                wakeups.park(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        worker.start();
        Thread.sleep(100);
        assertThat(worker.isAlive()).as("parked while there is no work").isTrue();

        work.set(true);
        wakeups.workArrived();
        worker.join();
        assertThat(worker.isAlive()).isFalse();
    }

    @Test
    @Timeout(10)
    void anInterruptedWorker_leavesItsParkWithInterruptedException() throws Exception {
        WorkerWakeups wakeups = new WorkerWakeups(1, worker -> false);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread worker = new Thread(() -> {
            try {
                wakeups.park(0);
            } catch (InterruptedException e) {
                thrown.set(e);
            }
        });
        worker.start();
        Thread.sleep(50);
        worker.interrupt();
        worker.join();
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    }

    @Test
    @Timeout(10)
    void theWatcher_isRungWhenATakeEmptiesADeque() throws Exception {
        WorkerWakeups wakeups = new WorkerWakeups(1, worker -> true);
        Wakeup watcher = new Wakeup();
        wakeups.watch(watcher);
        WorkDeque deque = new WorkDeque();
        deque.push(Region.root(8));
        deque.push(Region.root(4));
        Thread agent = new Thread(() -> watcher.await(deque::isEmpty, Long.MAX_VALUE));
        agent.start();
        while (!watcher.waiting()) {
            Thread.onSpinWait();
        }
        deque.pop();
        wakeups.regionTaken(deque); // one region left: the agent keeps waiting
        assertThat(agent.isAlive()).isTrue();

        deque.pop();
        wakeups.regionTaken(deque); // empty: only this ring can end the agent's wait
        agent.join();
        assertThat(watcher.waiting()).isFalse();
    }

    @Test
    @Timeout(10)
    void theEndOfTheRun_wakesEveryWorkerAndTheWatcher() throws Exception {
        AtomicBoolean over = new AtomicBoolean();
        WorkerWakeups wakeups = new WorkerWakeups(2, worker -> over.get());
        Wakeup watcher = new Wakeup();
        wakeups.watch(watcher);
        Thread[] threads = new Thread[3];
        for (int w = 0; w < 2; w++) {
            int id = w;
            threads[w] = new Thread(() -> {
                try {
                    wakeups.park(id);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        threads[2] = new Thread(() -> watcher.await(over::get, Long.MAX_VALUE));
        for (Thread t : threads) {
            t.start();
        }
        Thread.sleep(50);
        over.set(true);
        wakeups.wakeAll();
        for (Thread t : threads) {
            t.join();
        }
    }
}
