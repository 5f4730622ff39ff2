package io.herald.deploy.axon;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** When a segment's batch starts: after the linger when an event starts it, at once when its own thread does. */
class LingeringWorkersTest {

    private final LingeringWorkers workers =
            new LingeringWorkers(2, runnable -> new Thread(runnable, "test-worker"), Duration.ofHours(1));

    @AfterEach
    void stop() {
        workers.shutdownNow();
    }

    @Test
    void aBatchStartedFromOutsideWaitsForTheLinger() {
        Future<?> batch = workers.submit(() -> { });

        assertThat(batch).isInstanceOf(ScheduledFuture.class);
        assertThat(((ScheduledFuture<?>) batch).getDelay(TimeUnit.MINUTES)).isGreaterThan(50);
        assertThat(batch).isNotDone();
    }

    @Test
    void aBatchOfLeftOverEventsStartsAtOnce() throws Exception {
        CompletableFuture<Future<?>> next = new CompletableFuture<>();
        CompletableFuture<String> ran = new CompletableFuture<>();
        // a batch running on a worker thread schedules the next one, as Axon's work package does
        workers.execute(() -> next.complete(workers.submit(() -> ran.complete(Thread.currentThread().getName()))));

        assertThat(ran.get(30, TimeUnit.SECONDS)).isEqualTo("test-worker");
        assertThat(((ScheduledFuture<?>) next.get(30, TimeUnit.SECONDS)).getDelay(TimeUnit.MINUTES)).isLessThan(1);
    }

    @Test
    void noLingerStartsEveryBatchAtOnce() throws Exception {
        LingeringWorkers immediate = new LingeringWorkers(1, Thread::new, Duration.ZERO);
        try {
            Runnable batch = () -> { };
            assertThat(immediate.submit(batch).get(30, TimeUnit.SECONDS)).isNull();
        } finally {
            immediate.shutdownNow();
        }
    }
}
