package io.herald.command.publication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.axonframework.test.matchers.Matchers.predicate;

import io.herald.command.health.ConnectionHealth;
import io.herald.adapters.port.ChannelConnection;
import io.herald.command.publishing.AutoReattemptPolicy;
import io.herald.command.publishing.ConnectionThrottle;
import io.herald.command.publishing.PublishingProperties;
import io.herald.command.publishing.RetryPolicy;
import io.herald.command.publishing.SameKeyResendPolicy;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptDecision.Verdict;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationNothingToChangeEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationSupersededEvent;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationTargetedEvent;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.StartAttemptCommand;
import io.herald.contracts.publication.UnknownCause;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The publication's side of an entry's order: update and delete take their turn before any call. */
class PublicationEntryOrderTest {

    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("fb-main");
    private static final PublicationId ID = IdempotencyKeys.publicationId(WS, "entry-42", 4, CHANNEL,
            PublicationAction.UPDATE);
    private static final PublicationId PUBLISH = IdempotencyKeys.publicationId(WS, "entry-42", 3, CHANNEL,
            PublicationAction.PUBLISH);
    private static final Content CONTENT = new Content(null, "Hello again, fixed", null);
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    private static final ProviderRef POST = new ProviderRef("page-1_777", "https://www.facebook.com/page-1_777");
    private static final AttemptTrace NO_ANSWER = new AttemptTrace("fp", "page-1_777", T0, false, null, null, null,
            30000);

    private FixtureConfiguration<Publication> fixture;
    private ScriptedEntryOrder order;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Publication.class);
        order = new ScriptedEntryOrder();
        fixture.registerInjectableResource(new ConnectionThrottle());
        fixture.registerInjectableResource(ConnectionHealth.allActive());
        fixture.registerInjectableResource(order);
        // the channel did not opt in: converging steps are sent again anyway
        fixture.registerInjectableResource(new AutoReattemptPolicy((ws, ch) -> Optional.of(new ChannelConnection(
                ws, ch, ChannelType.of("facebook"), null, null, false))));
        fixture.registerInjectableResource(SameKeyResendPolicy.never());
        fixture.registerInjectableResource(new RetryPolicy(new PublishingProperties(null, null, null,
                new PublishingProperties.Retry(3, 8, Duration.ofSeconds(2), 2.0, 0.0, Duration.ofMinutes(1), null), null)));
    }

    private static PublicationRequestedEvent requested(PublicationAction action) {
        return new PublicationRequestedEvent(ID, WS, "entry-42", 4, CHANNEL, ChannelType.of("facebook"), action, CONTENT,
                CONTENT.hash(), null, T0, "calendar");
    }

    private static StartAttemptCommand start(int expected, AttemptTrigger trigger, int secondsAfterT0) {
        return new StartAttemptCommand(ID, expected, trigger, T0.plusSeconds(secondsAfterT0), TIMEOUT, false);
    }

    private static PublicationAttemptedEvent attempted(int n, int secondsAfterT0) {
        Instant at = T0.plusSeconds(secondsAfterT0);
        return new PublicationAttemptedEvent(ID, WS, CHANNEL, n, n == 1 ? AttemptTrigger.INITIAL
                : AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND, ID.value(), CONTENT.hash(), at, at.plus(TIMEOUT), null,
                PublicationStep.UPDATE_POST, null);
    }

    private static PublicationOutcomeUnknownEvent unknown(int n) {
        return new PublicationOutcomeUnknownEvent(ID, WS, n, UnknownCause.READ_TIMEOUT, "read timed out", NO_ANSWER,
                T0.plusSeconds(30L * n));
    }

    private static PublicationReconciledEvent notFound(int n) {
        return new PublicationReconciledEvent(ID, WS, n, ReconciliationResult.NOT_FOUND,
                ReconciliationSource.AUTOMATIC, null, "the post's text is not the wanted one yet", null, null,
                T0.plusSeconds(30L * n + 10));
    }

    @Test
    void anUpdateWaitsWithoutAnEventWhileAnEarlierOperationOfTheEntryIsOpen() {
        order.answer(new EntryOrder.Wait(PUBLISH));
        fixture.given(requested(PublicationAction.UPDATE))
                .when(start(1, AttemptTrigger.INITIAL, 1))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.REFUSED && Publication.WAITING_FOR_ENTRY.equals(d.refusal())));
    }

    @Test
    void anUpdateOlderThanAnAppliedOneIsSupersededWithoutACall() {
        order.answer(new EntryOrder.Superseded(5));
        fixture.given(requested(PublicationAction.UPDATE))
                .when(start(1, AttemptTrigger.INITIAL, 1))
                .expectEvents(new PublicationSupersededEvent(ID, WS, 4, 5, "content version 4 is older than version 5,"
                        + " already applied to the entry's post; nothing was sent", T0.plusSeconds(1)))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.REFUSED));
    }

    @Test
    void aSupersededUpdateNeverStartsLater() {
        order.answer(new EntryOrder.Go(POST));
        fixture.given(requested(PublicationAction.UPDATE),
                        new PublicationSupersededEvent(ID, WS, 4, 5, "older", T0.plusSeconds(1)))
                .when(start(1, AttemptTrigger.INITIAL, 2))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.REFUSED));
    }

    @Test
    void aDeleteWithoutAPostEndsWithNothingToChange() {
        order.answer(new EntryOrder.NothingToChange("the publish never executed"));
        fixture.given(requested(PublicationAction.DELETE))
                .when(start(1, AttemptTrigger.INITIAL, 1))
                .expectEvents(new PublicationNothingToChangeEvent(ID, WS, "the publish never executed",
                        T0.plusSeconds(1)))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && "nothing_to_change".equals(d.refusal())));
    }

    @Test
    void anUpdateWhoseTurnCameRecordsItsTargetThenTheAttemptAndCarriesTheTargetToTheCall() {
        order.answer(new EntryOrder.Go(POST));
        fixture.given(requested(PublicationAction.UPDATE))
                .when(start(1, AttemptTrigger.INITIAL, 1))
                .expectEvents(new PublicationTargetedEvent(ID, WS, POST, T0.plusSeconds(1)),
                        new PublicationAttemptedEvent(ID, WS, CHANNEL, 1, AttemptTrigger.INITIAL, ID.value(),
                                CONTENT.hash(), T0.plusSeconds(1), T0.plusSeconds(1).plus(TIMEOUT), null,
                                PublicationStep.UPDATE_POST, null))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.started() && POST.equals(d.target())));
    }

    @Test
    void aConvergingStepWhoseChangeTheReadBackMissedIsSentAgainWithoutAskingItsTurnOrReadingFirst() {
        order.answer(new EntryOrder.Wait(PUBLISH));
        fixture.given(requested(PublicationAction.UPDATE), new PublicationTargetedEvent(ID, WS, POST, T0),
                        attempted(1, 1), unknown(1), notFound(1))
                .when(start(2, AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND, 60))
                .expectEvents(attempted(2, 60))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.started() && POST.equals(d.target())));
        assertThat(order.asked).isZero();
    }

    @Test
    void resendsOfAConvergingStepAreBoundedByTheRetryPolicy() {
        fixture.given(requested(PublicationAction.DELETE), new PublicationTargetedEvent(ID, WS, POST, T0),
                        attempted(1, 1), unknown(1), notFound(1), attempted(2, 60), unknown(2), notFound(2),
                        attempted(3, 120), unknown(3), notFound(3))
                .when(start(4, AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND, 200))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.REFUSED));
    }

    /** A channel that re-attempts creates after NOT_FOUND by itself does not lift the bound of a converging step. */
    @Test
    void resendsOfAConvergingStepStayBoundedOnAChannelThatReattemptsCreatesByItself() {
        FixtureConfiguration<Publication> optedIn = new AggregateTestFixture<>(Publication.class);
        optedIn.registerInjectableResource(new ConnectionThrottle());
        optedIn.registerInjectableResource(ConnectionHealth.allActive());
        optedIn.registerInjectableResource(order);
        optedIn.registerInjectableResource(new AutoReattemptPolicy((ws, ch) -> Optional.of(new ChannelConnection(
                ws, ch, ChannelType.of("facebook"), null, null, true))));
        optedIn.registerInjectableResource(SameKeyResendPolicy.never());
        optedIn.registerInjectableResource(new RetryPolicy(new PublishingProperties(null, null, null,
                new PublishingProperties.Retry(3, 8, Duration.ofSeconds(2), 2.0, 0.0, Duration.ofMinutes(1), null), null)));
        optedIn.given(requested(PublicationAction.UPDATE), new PublicationTargetedEvent(ID, WS, POST, T0),
                        attempted(1, 1), unknown(1), notFound(1), attempted(2, 60), unknown(2), notFound(2),
                        attempted(3, 120), unknown(3), notFound(3))
                .when(start(4, AttemptTrigger.AUTO_REATTEMPT_AFTER_NOT_FOUND, 200))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.REFUSED));
    }

    @Test
    void aReadBackOfAConvergingStepReadsTheTargetPost() {
        fixture.given(requested(PublicationAction.UPDATE), new PublicationTargetedEvent(ID, WS, POST, T0),
                        attempted(1, 1), unknown(1))
                .when(new io.herald.contracts.publication.StartReadBackCommand(ID, 1))
                .expectResultMessagePayloadMatching(predicate(r ->
                        r instanceof io.herald.contracts.publication.ReadBackLicence l && POST.equals(l.target())
                                && l.action() == PublicationAction.UPDATE));
    }
}
