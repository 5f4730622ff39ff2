package io.herald.command.publication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.axonframework.test.matchers.Matchers.predicate;

import io.herald.adapters.port.ChannelConnection;
import io.herald.command.health.ConnectionHealth;
import io.herald.command.publishing.AutoReattemptPolicy;
import io.herald.command.publishing.ConnectionThrottle;
import io.herald.command.publishing.PublishingProperties;
import io.herald.command.publishing.RetryPolicy;
import io.herald.command.publishing.SameKeyResendPolicy;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptDecision.Verdict;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationNextStepDueEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.RecordAttemptOutcomeUnknownCommand;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.StartAttemptCommand;
import io.herald.contracts.publication.StartReadBackCommand;
import io.herald.contracts.publication.StepClass;
import io.herald.contracts.publication.StepRole;
import io.herald.contracts.publication.UnknownCause;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.axonframework.test.aggregate.AggregateTestFixture;
import org.axonframework.test.aggregate.FixtureConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Step kinds a channel plug-in declares flow through the aggregate by their class and role alone:
 * nothing in the aggregate knows them by name. Here a repeatable kind before the post (as a
 * container that expires unused) and a once-only post kind read back after an unknown outcome (as
 * publishing that container).
 */
class PluginStepKindsTest {

    /** Declared as a plug-in declares its own: a constant of its package. */
    static final PublicationStep PREPARE_BUNDLE = PublicationStep.declare("prepare_bundle", StepClass.REPEATABLE,
            false, StepRole.PREPARES_POST, "prepare bundle");
    static final PublicationStep PUBLISH_BUNDLE = PublicationStep.declare("publish_bundle", StepClass.ONCE_ONLY,
            true, StepRole.MAKES_POST, "publish bundle");

    private static final WorkspaceId WS = new WorkspaceId("acme");
    private static final ChannelId CHANNEL = new ChannelId("bundles");
    private static final ChannelType TYPE = ChannelType.of("bundles");
    private static final PublicationId ID = IdempotencyKeys.publicationId(WS, "entry-9", 1, CHANNEL,
            PublicationAction.PUBLISH);
    private static final MediaId RED = MediaId.of("med_" + "c".repeat(64));
    private static final Content CONTENT = new Content(null, "A bundle", null,
            List.of(new ContentMedia(RED, "a red square")), null);
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    private static final AttemptTrace TRACE = new AttemptTrace("fp", "acct", T0, true, 200, null, null, 50);
    private static final ProviderRef BUNDLE = new ProviderRef("bundle-1", null);
    private static final ProviderRef POST = new ProviderRef("post-1", "https://example.org/post-1");

    private FixtureConfiguration<Publication> fixture;

    @BeforeEach
    void setUp() {
        fixture = new AggregateTestFixture<>(Publication.class);
        fixture.registerInjectableResource(new ConnectionThrottle());
        fixture.registerInjectableResource(ConnectionHealth.allActive());
        fixture.registerInjectableResource(new ScriptedEntryOrder());
        fixture.registerInjectableResource(SameKeyResendPolicy.never());
        fixture.registerInjectableResource(new AutoReattemptPolicy((ws, ch) -> Optional.of(new ChannelConnection(
                ws, ch, TYPE, null, null, false))));
        fixture.registerInjectableResource(new RetryPolicy(new PublishingProperties(null, null, null,
                new PublishingProperties.Retry(3, 8, Duration.ofSeconds(2), 2.0, 0.0, Duration.ofMinutes(1), null), null)));
    }

    private static PublicationRequestedEvent requested() {
        return new PublicationRequestedEvent(ID, WS, "entry-9", 1, CHANNEL, TYPE, PublicationAction.PUBLISH, CONTENT,
                CONTENT.hash(), null, T0, "calendar", List.of(PREPARE_BUNDLE, PUBLISH_BUNDLE));
    }

    private static PublicationAttemptedEvent attempted(int n, AttemptTrigger trigger, PublicationStep step,
                                                       MediaId media) {
        Instant at = T0.plusSeconds(n);
        return new PublicationAttemptedEvent(ID, WS, CHANNEL, n, trigger, ID.value(), CONTENT.hash(), at,
                at.plus(TIMEOUT), null, step, media);
    }

    private static PublicationNextStepDueEvent due(int n, PublicationStep step, Instant at) {
        return new PublicationNextStepDueEvent(ID, WS, n, step, at);
    }

    private static PublicationOutcomeUnknownEvent unknown(int n) {
        return new PublicationOutcomeUnknownEvent(ID, WS, n, UnknownCause.READ_TIMEOUT, "read timed out",
                AttemptTrace.nothingCameBack("acct", T0), T0.plusSeconds(n));
    }

    private static RecordAttemptOutcomeUnknownCommand unknownOf(int n) {
        return new RecordAttemptOutcomeUnknownCommand(ID, n, UnknownCause.READ_TIMEOUT, "read timed out",
                AttemptTrace.nothingCameBack("acct", T0), T0.plusSeconds(n));
    }

    private static StartAttemptCommand start(int n, AttemptTrigger trigger, boolean readDone) {
        return new StartAttemptCommand(ID, n, trigger, T0.plusSeconds(n), TIMEOUT, readDone);
    }

    /** The bundle prepared, its publication attempted: attempts 1 and 2. */
    private static Object[] publishing() {
        return new Object[] {requested(), attempted(1, AttemptTrigger.INITIAL, PREPARE_BUNDLE, RED),
                new PublicationSucceededEvent(ID, WS, 1, BUNDLE, TRACE, T0.plusSeconds(1)),
                due(2, PUBLISH_BUNDLE, T0.plusSeconds(1)), attempted(2, AttemptTrigger.NEXT_STEP, PUBLISH_BUNDLE, null)};
    }

    @Test
    void aKindIsDeclaredOnceAndReadByItsWireName() {
        assertThat(PublicationStep.fromWireName("prepare_bundle")).isSameAs(PREPARE_BUNDLE);
        assertThat(PublicationStep.declare("prepare_bundle", StepClass.REPEATABLE, false, StepRole.PREPARES_POST,
                "prepare bundle")).isSameAs(PREPARE_BUNDLE);
        assertThatThrownBy(() -> PublicationStep.declare("prepare_bundle", StepClass.ONCE_ONLY, true,
                StepRole.PREPARES_POST, "prepare bundle")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> PublicationStep.fromWireName("no_such_step"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theChannelsFirstKindBeforeThePostStartsThePublication() {
        fixture.given(requested())
                .when(start(1, AttemptTrigger.INITIAL, false))
                .expectEvents(attempted(1, AttemptTrigger.INITIAL, PREPARE_BUNDLE, RED))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.START && d.step() == PREPARE_BUNDLE && RED.equals(d.mediaId())));
    }

    @Test
    void aRepeatableKindIsSentAgainAfterAnUnknownOutcomeWithoutAReadBack() {
        Object[] unknownOnce = {requested(), attempted(1, AttemptTrigger.INITIAL, PREPARE_BUNDLE, RED)};
        fixture.given(unknownOnce)
                .when(unknownOf(1))
                .expectEvents(unknown(1), due(2, PREPARE_BUNDLE, T0.plusSeconds(1)));
        fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, PREPARE_BUNDLE, RED), unknown(1),
                        due(2, PREPARE_BUNDLE, T0.plusSeconds(1)))
                .when(start(2, AttemptTrigger.NEXT_STEP, false))
                .expectEvents(attempted(2, AttemptTrigger.NEXT_STEP, PREPARE_BUNDLE, RED));
    }

    @Test
    void aRecordedRepeatableStepMakesTheChannelsPostStepDueWithItsResult() {
        fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, PREPARE_BUNDLE, RED))
                .when(new RecordAttemptSucceededCommand(ID, 1, BUNDLE, TRACE, T0.plusSeconds(1)))
                .expectEvents(new PublicationSucceededEvent(ID, WS, 1, BUNDLE, TRACE, T0.plusSeconds(1)),
                        due(2, PUBLISH_BUNDLE, T0.plusSeconds(1)));
        fixture.given(requested(), attempted(1, AttemptTrigger.INITIAL, PREPARE_BUNDLE, RED),
                        new PublicationSucceededEvent(ID, WS, 1, BUNDLE, TRACE, T0.plusSeconds(1)),
                        due(2, PUBLISH_BUNDLE, T0.plusSeconds(1)))
                .when(start(2, AttemptTrigger.NEXT_STEP, false))
                .expectEvents(attempted(2, AttemptTrigger.NEXT_STEP, PUBLISH_BUNDLE, null))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.step() == PUBLISH_BUNDLE && d.uploads().size() == 1
                        && d.uploads().get(0).providerRef().equals(BUNDLE)));
    }

    @Test
    void aOnceOnlyKindWithAnUnknownOutcomeIsReadBackAndNeverSentBlind() {
        fixture.given(publishing())
                .when(unknownOf(2))
                .expectEvents(unknown(2));
        Object[] unknownPost = append(publishing(), unknown(2));
        fixture.given(unknownPost)
                .when(start(3, AttemptTrigger.RETRY, false))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.REFUSED
                        && ErrorCode.OUTCOME_UNKNOWN_REQUIRES_DECISION.code().equals(d.refusal())));
        fixture.given(unknownPost)
                .when(new StartReadBackCommand(ID, 2))
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof ReadBackLicence l
                        && l.attemptNo() == 2 && l.step() == PUBLISH_BUNDLE));
    }

    @Test
    void aOnceOnlyKindReattemptedByAnOperatorIsReadOnceMoreFirst() {
        Object[] reattempted = append(publishing(), unknown(2),
                new PublicationReconciledEvent(ID, WS, 2, ReconciliationResult.NOT_FOUND,
                        ReconciliationSource.OPERATOR, null, "not there", "olga", null, T0.plusSeconds(60)),
                new PublicationExecutionRequestedEvent(ID, WS, AttemptTrigger.OPERATOR_REATTEMPT, "olga", null,
                        T0.plusSeconds(70), 3));
        fixture.given(reattempted)
                .when(start(3, AttemptTrigger.OPERATOR_REATTEMPT, false))
                .expectNoEvents()
                .expectResultMessagePayloadMatching(predicate(r -> r instanceof AttemptDecision d
                        && d.verdict() == Verdict.READ_FIRST));
        fixture.given(reattempted)
                .when(start(3, AttemptTrigger.OPERATOR_REATTEMPT, true))
                .expectEvents(attempted(3, AttemptTrigger.OPERATOR_REATTEMPT, PUBLISH_BUNDLE, null));
    }

    @Test
    void theRequestPlansTheChannelsKindsInTheirRoles() {
        assertThat(PublicationStep.plan(PublicationAction.PUBLISH, CONTENT, List.of(PREPARE_BUNDLE, PUBLISH_BUNDLE)))
                .extracting(PublicationStep.Planned::kind).containsExactly(PREPARE_BUNDLE, PUBLISH_BUNDLE);
        // a first comment the channel names no kind for is planned as the core kind, which it then lacks
        Content withComment = new Content(null, "A bundle", null, List.of(), "First!");
        assertThat(PublicationStep.plan(PublicationAction.PUBLISH, withComment, List.of(PREPARE_BUNDLE,
                PUBLISH_BUNDLE))).extracting(PublicationStep.Planned::kind)
                .containsExactly(PUBLISH_BUNDLE, PublicationStep.FIRST_COMMENT);
    }

    private static Object[] append(Object[] history, Object... more) {
        Object[] all = java.util.Arrays.copyOf(history, history.length + more.length);
        System.arraycopy(more, 0, all, history.length, more.length);
        return all;
    }
}
