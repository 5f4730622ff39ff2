package io.herald.command.publishing;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptDecision.Verdict;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.RecordAttemptFailedCommand;
import io.herald.platform.tracing.Traces;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.axonframework.messaging.MetaData;
import org.junit.jupiter.api.Test;

class AttemptCallerTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private static final PublicationId ID = new PublicationId("pub_1");

    /**
     * A licensed call that waited past its attempt's deadline (a hung thread, a long queue) must not
     * go out: the expiry has made the attempt unknown, a read-back may have found nothing and a
     * re-attempt may be calling already, so the late call could create a second post.
     */
    @Test
    void aCallStillWaitingAtItsAttemptsDeadlineIsNeverMade() throws InterruptedException {
        List<Integer> lookedUp = new CopyOnWriteArrayList<>();
        List<Object> recorded = new CopyOnWriteArrayList<>();
        CountDownLatch secondDone = new CountDownLatch(1);
        ResultRecorder results = new ResultRecorder(null, null, null) {
            @Override
            public void record(Object command, MetaData origin, Consumer<Object> then) {
                recorded.add(command);
                secondDone.countDown();
            }
        };
        // the lookup comes right before the provider call: no lookup, no call
        AttemptCaller calls = new AttemptCaller((ws, ch) -> {
            lookedUp.add(recorded.size());
            return Optional.empty();
        }, null, null, results, null, new ConnectionThrottle(), Clock.fixed(NOW, ZoneOffset.UTC),
                new SimpleMeterRegistry(), new StepCaller(null, null, null), Traces.none(), null,
                new VerificationProperties(false, java.time.Duration.ofMinutes(10), 3));
        try {
            calls.call(attempt(1), NOW, MetaData.emptyInstance());
            calls.call(attempt(2), NOW.plusSeconds(1), MetaData.emptyInstance());
            assertThat(secondDone.await(5, TimeUnit.SECONDS)).isTrue();
            // tasks leave the queue in order: the first, if it called, would have done so by now
            Thread.sleep(200);
            assertThat(lookedUp).as("provider lookups").hasSize(1);
            assertThat(recorded).singleElement().isInstanceOfSatisfying(RecordAttemptFailedCommand.class,
                    failed -> assertThat(failed.attemptNo()).isEqualTo(2));
        } finally {
            calls.stop();
            results.stop();
        }
    }

    private static AttemptDecision attempt(int attemptNo) {
        return new AttemptDecision(Verdict.START, ID, new WorkspaceId("acme"), new ChannelId("fb-main"),
                ChannelType.of("facebook"), attemptNo, AttemptTrigger.INITIAL, PublicationAction.PUBLISH,
                new Content(null, "Hello", null), null, null, null, null, null);
    }
}
