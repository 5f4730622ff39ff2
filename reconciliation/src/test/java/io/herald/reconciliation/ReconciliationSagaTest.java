package io.herald.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReadBackRequestedEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.ReconciliationHint;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.UnknownCause;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.test.saga.SagaTestFixture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ReconciliationSagaTest {

    private static final PublicationId ID = new PublicationId("pub_" + "b".repeat(64));
    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("li-main");
    private static final Content CONTENT = new Content(null, "Hello", null);
    private static final ReconciliationProperties PROPERTIES = new ReconciliationProperties(Duration.ofSeconds(30),
            List.of(Duration.ofMinutes(2), Duration.ofMinutes(10), Duration.ofHours(1)));

    static final class RecordedReadBacks implements ReadBacks {
        final List<ReadBackPlan> plans = new ArrayList<>();

        @Override
        public void run(ReadBackPlan plan) {
            plans.add(plan);
        }
    }

    private SagaTestFixture<ReconciliationSaga> fixture;
    private RecordedReadBacks readBacks;
    private Instant now;

    @BeforeEach
    void setUp() {
        fixture = new SagaTestFixture<>(ReconciliationSaga.class);
        readBacks = new RecordedReadBacks();
        fixture.registerResource(readBacks);
        fixture.registerResource(PROPERTIES);
        now = fixture.currentTime();
    }

    private PublicationRequestedEvent requested() {
        return new PublicationRequestedEvent(ID, WS, "entry-1", 1, CHANNEL, ChannelType.LINKEDIN,
                PublicationAction.PUBLISH, CONTENT, CONTENT.hash(), null, now, "calendar");
    }

    private PublicationAttemptedEvent attempted(int n) {
        return new PublicationAttemptedEvent(ID, WS, CHANNEL, n, AttemptTrigger.INITIAL, ID.value(), CONTENT.hash(),
                now, now.plusSeconds(120));
    }

    private PublicationOutcomeUnknownEvent unknown(int n) {
        return new PublicationOutcomeUnknownEvent(ID, WS, n, UnknownCause.READ_TIMEOUT, "timeout",
                AttemptTrace.nothingCameBack("urn:li:person:x", now), now);
    }

    private PublicationReconciledEvent reconciled(int n, ReconciliationResult result, ReconciliationSource source) {
        return new PublicationReconciledEvent(ID, WS, n, result, source,
                result == ReconciliationResult.FOUND ? new ProviderRef("urn:li:share:1", null) : null, "read", null,
                null, now);
    }

    @Test
    void readsBackOnlyAfterTheSettleDelay() {
        fixture.givenAPublished(requested()).andThenAPublished(attempted(1))
                .whenPublishingA(unknown(1))
                .expectScheduledDeadline(Duration.ofSeconds(30), new ReadBackDue(1));
        fixture.whenTimeElapses(Duration.ofSeconds(29));
        assertThat(readBacks.plans).isEmpty();
        fixture.whenTimeElapses(Duration.ofSeconds(2));
        assertThat(readBacks.plans).singleElement().satisfies(plan -> {
            assertThat(plan.attemptNo()).isEqualTo(1);
            assertThat(plan.readNo()).isEqualTo(1);
            assertThat(plan.workspaceId()).isEqualTo(WS);
        });
    }

    @Test
    void inconclusiveReadsRepeatOnABoundedSchedule() {
        fixture.givenAPublished(requested()).andThenAPublished(attempted(1)).andThenAPublished(unknown(1));
        fixture.whenTimeElapses(Duration.ofDays(3));
        assertThat(readBacks.plans).extracting(ReadBackPlan::readNo).containsExactly(1, 2, 3, 4);
    }

    @Test
    void aFoundResultStopsTheReadsAndEndsTheSaga() {
        fixture.givenAPublished(requested()).andThenAPublished(attempted(1)).andThenAPublished(unknown(1));
        fixture.whenTimeElapses(Duration.ofSeconds(31));
        fixture.whenPublishingA(reconciled(1, ReconciliationResult.FOUND, ReconciliationSource.AUTOMATIC))
                .expectActiveSagas(0);
        fixture.whenTimeElapses(Duration.ofDays(1));
        assertThat(readBacks.plans).hasSize(1);
    }

    @Test
    void aNotFoundResultStopsTheReads() {
        fixture.givenAPublished(requested()).andThenAPublished(attempted(1)).andThenAPublished(unknown(1));
        fixture.whenTimeElapses(Duration.ofSeconds(31));
        fixture.whenPublishingA(reconciled(1, ReconciliationResult.NOT_FOUND, ReconciliationSource.AUTOMATIC))
                .expectActiveSagas(1);
        fixture.whenTimeElapses(Duration.ofDays(1));
        assertThat(readBacks.plans).hasSize(1);
    }

    @Test
    void anOperatorsDecisionStopsTheReads() {
        fixture.givenAPublished(requested()).andThenAPublished(attempted(1)).andThenAPublished(unknown(1))
                .andThenAPublished(reconciled(1, ReconciliationResult.NOT_FOUND, ReconciliationSource.OPERATOR));
        fixture.whenTimeElapses(Duration.ofDays(1));
        assertThat(readBacks.plans).isEmpty();
    }

    @Test
    void aNewAttemptCancelsTheOldAttemptsReads() {
        fixture.givenAPublished(requested()).andThenAPublished(attempted(1)).andThenAPublished(unknown(1))
                .andThenAPublished(reconciled(1, ReconciliationResult.NOT_FOUND, ReconciliationSource.OPERATOR))
                .andThenAPublished(attempted(2))
                .whenPublishingA(unknown(2))
                .expectScheduledDeadline(Duration.ofSeconds(30), new ReadBackDue(2));
        fixture.whenTimeElapses(Duration.ofSeconds(31));
        assertThat(readBacks.plans).singleElement().satisfies(plan -> assertThat(plan.attemptNo()).isEqualTo(2));
    }

    @Test
    void anOperatorMayAskForAReadNow() {
        fixture.givenAPublished(requested()).andThenAPublished(attempted(1)).andThenAPublished(unknown(1))
                .whenPublishingA(new PublicationReadBackRequestedEvent(ID, WS, 1, "olga", now));
        assertThat(readBacks.plans).singleElement().satisfies(plan -> assertThat(plan.readNo()).isEqualTo(1));
    }

    @Test
    void noSagaAndNoReadWithoutAnUnknownOutcome() {
        fixture.givenAPublished(requested()).andThenAPublished(attempted(1))
                .whenPublishingA(new PublicationSucceededEvent(ID, WS, 1, new ProviderRef("urn:li:share:1", null),
                        AttemptTrace.nothingCameBack("urn:li:person:x", now), now))
                .expectActiveSagas(0);
        fixture.whenTimeElapses(Duration.ofDays(1));
        assertThat(readBacks.plans).isEmpty();
    }

    @Test
    void aSuccessAfterAnUnknownOutcomeEndsTheSagaAndItsReads() {
        fixture.givenAPublished(requested()).andThenAPublished(attempted(1)).andThenAPublished(unknown(1))
                .whenPublishingA(new PublicationSucceededEvent(ID, WS, 1, new ProviderRef("urn:li:share:1", null),
                        AttemptTrace.nothingCameBack("urn:li:person:x", now), now))
                .expectActiveSagas(0)
                .expectNoScheduledDeadlines();
        fixture.whenTimeElapses(Duration.ofDays(1));
        assertThat(readBacks.plans).isEmpty();
    }

    @Test
    void eventsMarkedAsNeverReconciledPassTheSagaBy() {
        // the publication marks only events written before any unknown outcome; the mark is forced
        // here to show the saga neither looks them up nor handles them
        fixture.givenAPublished(requested()).andThenAPublished(attempted(1)).andThenAPublished(unknown(1))
                .whenPublishingA(new PublicationSucceededEvent(ID, WS, 1, new ProviderRef("urn:li:share:1", null),
                        AttemptTrace.nothingCameBack("urn:li:person:x", now), now), ReconciliationHint.neverOpened())
                .expectActiveSagas(1)
                .expectScheduledDeadline(Duration.ofSeconds(30), new ReadBackDue(1));
    }
}
