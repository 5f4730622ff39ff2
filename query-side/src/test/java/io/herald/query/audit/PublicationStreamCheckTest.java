package io.herald.query.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAbandonedEvent;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationHeldEvent;
import io.herald.contracts.publication.PublicationReleasedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationNextStepDueEvent;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.contracts.publication.UnknownCause;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The verifier's rules on histories built from the real event records, serialized as the store keeps them. */
class PublicationStreamCheckTest {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private static final Instant T0 = Instant.parse("2026-12-01T09:00:00Z");
    private static final PublicationId ID = PublicationId.of("pub_" + "a".repeat(64));
    private static final WorkspaceId WS = WorkspaceId.of("acme");

    private final PublicationStreamCheck check = new PublicationStreamCheck(ID.value());
    private long sequence = 1;

    private void event(Object payload) {
        JsonNode tree = JSON.valueToTree(payload);
        check.accept(sequence++, payload.getClass().getSimpleName(), tree);
    }

    private static PublicationAttemptedEvent attempted(int n) {
        return new PublicationAttemptedEvent(ID, WS, ChannelId.of("fb-main"), n, AttemptTrigger.INITIAL, ID.value(),
                "hash", T0.plusSeconds(n * 60L), T0.plusSeconds(n * 60L + 30));
    }

    private static PublicationSucceededEvent succeeded(int n) {
        return new PublicationSucceededEvent(ID, WS, n, new ProviderRef("1_2", null), null, T0.plusSeconds(n * 60L + 1));
    }

    private static PublicationFailedEvent failedRetryable(int n) {
        return new PublicationFailedEvent(ID, WS, n, FailureKind.NOT_SENT, "connect_refused", "refused", null,
                T0.plusSeconds(n * 60L + 40), T0.plusSeconds(n * 60L + 1));
    }

    private static PublicationOutcomeUnknownEvent unknown(int n) {
        return new PublicationOutcomeUnknownEvent(ID, WS, n, UnknownCause.READ_TIMEOUT, "read timed out",
                AttemptTrace.nothingCameBack("page", T0), T0.plusSeconds(n * 60L + 2));
    }

    private static PublicationReconciledEvent reconciled(int n, ReconciliationResult result) {
        return new PublicationReconciledEvent(ID, WS, n, result, ReconciliationSource.AUTOMATIC, null, "read back",
                null, null, T0.plusSeconds(n * 60L + 5));
    }

    private List<Breach> finish() {
        return check.finish(T0.plus(Duration.ofMinutes(1)));
    }

    @Test
    void aHistoryTheAggregateWouldWriteIsClean() {
        event(attempted(1));
        event(failedRetryable(1));
        event(attempted(2));
        event(unknown(2));
        event(reconciled(2, ReconciliationResult.UNKNOWN));
        event(reconciled(2, ReconciliationResult.NOT_FOUND));
        event(attempted(3));
        event(succeeded(3));

        assertThat(finish()).isEmpty();
        assertThat(check.events()).isEqualTo(8);
    }

    @Test
    void reportsAnAttemptStartedWhileAnotherWasInFlight() {
        event(attempted(1));
        event(attempted(2));

        assertThat(finish()).extracting(Breach::rule, Breach::sequence).containsExactly(
                org.assertj.core.groups.Tuple.tuple(1, 2L), org.assertj.core.groups.Tuple.tuple(2, 2L));
    }

    @Test
    void reportsAttemptNumbersThatAreNotConsecutive() {
        event(attempted(1));
        event(failedRetryable(1));
        event(attempted(3));

        assertThat(finish()).singleElement().satisfies(b -> {
            assertThat(b.rule()).isEqualTo(1);
            assertThat(b.detail()).contains("expected attempt 2, found attempt 3");
        });
    }

    @Test
    void reportsAnAttemptLeftWithoutResultLongAfterItsDeadline() {
        event(attempted(1));

        assertThat(check.finish(T0.plus(Duration.ofHours(1)))).singleElement()
                .satisfies(b -> assertThat(b.rule()).isEqualTo(2));
    }

    @Test
    void anAttemptStillWithinItsDeadlineIsNoBreach() {
        event(attempted(1));

        assertThat(check.finish(T0.plusSeconds(90))).isEmpty();
    }

    @Test
    void reportsAnAbandonWhileAnAttemptHadNoResult() {
        event(attempted(1));
        event(new PublicationAbandonedEvent(ID, WS, "op", "stop", T0.plusSeconds(70)));

        assertThat(finish()).singleElement().satisfies(b -> {
            assertThat(b.rule()).isEqualTo(2);
            assertThat(b.sequence()).isEqualTo(2);
        });
    }

    @Test
    void reportsABlindRetryAfterAnUnknownOutcome() {
        event(attempted(1));
        event(unknown(1));
        event(attempted(2));

        assertThat(finish()).singleElement().satisfies(b -> {
            assertThat(b.publicationId()).isEqualTo(ID.value());
            assertThat(b.rule()).isEqualTo(3);
            assertThat(b.sequence()).isEqualTo(3);
        });
    }

    @Test
    void anUnknownReadBackDoesNotAllowANewAttempt() {
        event(attempted(1));
        event(unknown(1));
        event(reconciled(1, ReconciliationResult.UNKNOWN));
        event(attempted(2));

        assertThat(finish()).extracting(Breach::rule).containsExactly(3);
    }

    @Test
    void reportsAnAttemptAfterSuccess() {
        event(attempted(1));
        event(succeeded(1));
        event(attempted(2));

        assertThat(finish()).extracting(Breach::rule).containsExactly(4);
    }

    @Test
    void reportsAnAttemptAfterAFoundReadBack() {
        event(attempted(1));
        event(unknown(1));
        event(reconciled(1, ReconciliationResult.FOUND));
        event(attempted(2));

        assertThat(finish()).extracting(Breach::rule).contains(4);
    }

    @Test
    void reportsAResultForAnAttemptNotInFlight() {
        event(attempted(1));
        event(failedRetryable(1));
        event(succeeded(1));

        assertThat(finish()).singleElement().satisfies(b -> {
            assertThat(b.rule()).isEqualTo(5);
            assertThat(b.sequence()).isEqualTo(3);
        });
    }

    @Test
    void reportsAResultForAnOlderAttempt() {
        event(attempted(1));
        event(failedRetryable(1));
        event(attempted(2));
        event(unknown(1));

        assertThat(finish()).extracting(Breach::rule).containsExactly(5);
    }

    private static PublicationAttemptedEvent attempted(int n, PublicationStep step) {
        return new PublicationAttemptedEvent(ID, WS, ChannelId.of("fb-main"), n, AttemptTrigger.NEXT_STEP, ID.value(),
                "hash", T0.plusSeconds(n * 60L), T0.plusSeconds(n * 60L + 30), null, step,
                step == PublicationStep.UPLOAD_MEDIA ? MediaId.of("med_" + "c".repeat(64)) : null);
    }

    private void due(int n, PublicationStep step) {
        event(new PublicationNextStepDueEvent(ID, WS, n, step, T0.plusSeconds(n * 60L - 1)));
    }

    @Test
    void unknownUploadsUploadedAgainThenThePostThenOneCommentIsClean() {
        event(attempted(1, PublicationStep.UPLOAD_MEDIA));
        event(unknown(1));
        due(2, PublicationStep.UPLOAD_MEDIA);
        event(attempted(2, PublicationStep.UPLOAD_MEDIA));
        event(succeeded(2));
        due(3, PublicationStep.CREATE_POST);
        event(attempted(3, PublicationStep.CREATE_POST));
        event(succeeded(3));
        due(4, PublicationStep.FIRST_COMMENT);
        event(attempted(4, PublicationStep.FIRST_COMMENT));
        event(unknown(4));
        event(reconciled(4, ReconciliationResult.NOT_FOUND));
        event(attempted(5, PublicationStep.FIRST_COMMENT));
        event(succeeded(5));
        assertThat(finish()).isEmpty();
    }

    @Test
    void anUploadUnknownTooOftenEndsFailedAndThatIsNoBreach() {
        event(attempted(1, PublicationStep.UPLOAD_MEDIA));
        event(unknown(1));
        // the aggregate's end of an upload the retry policy may not send again: the unknown attempt fails
        event(new PublicationFailedEvent(ID, WS, 1, FailureKind.REJECTED, "upload_outcome_unknown", "no clear answer",
                AttemptTrace.nothingCameBack(null, null), null, T0.plusSeconds(62)));
        assertThat(finish()).isEmpty();

        event(new PublicationFailedEvent(ID, WS, 1, FailureKind.REJECTED, "upload_outcome_unknown", "again",
                AttemptTrace.nothingCameBack(null, null), null, T0.plusSeconds(63)));
        assertThat(finish()).singleElement().satisfies(b -> assertThat(b.rule()).isEqualTo(5));
    }

    @Test
    void aDuplicateRefusalIsTheAnswerOfTheAttemptInFlight() {
        event(attempted(1));
        event(new PublicationReconciledEvent(ID, WS, 1, ReconciliationResult.FOUND,
                ReconciliationSource.PROVIDER_DUPLICATE_SIGNAL, new ProviderRef("1_2", null), "duplicate", null, null,
                T0.plusSeconds(5)));
        assertThat(finish()).isEmpty();
    }

    private static PublicationHeldEvent held(int attemptNo) {
        return new PublicationHeldEvent(ID, WS, ChannelId.of("li-main"), attemptNo,
                "the connection needs new credentials: expired", attemptNo == 0 ? null : "EXPIRED_ACCESS_TOKEN", null,
                T0, T0.plusSeconds(attemptNo * 60L + 3));
    }

    @Test
    void aHoldAfterTheProvidersCredentialsRefusalClosesThatAttempt() {
        event(attempted(1));
        event(held(1));
        event(new PublicationReleasedEvent(ID, WS, ChannelId.of("li-main"), 2, T0.plusSeconds(100)));
        event(attempted(2));
        event(succeeded(2));
        assertThat(finish()).isEmpty();
    }

    @Test
    void aSecondCommentAfterAnUnknownOneWithoutNotFoundIsABreach() {
        event(attempted(1, PublicationStep.CREATE_POST));
        event(succeeded(1));
        event(attempted(2, PublicationStep.FIRST_COMMENT));
        event(unknown(2));
        event(attempted(3, PublicationStep.FIRST_COMMENT));
        assertThat(finish()).extracting(Breach::rule).contains(3);
    }

    @Test
    void aCommentAfterASucceededCommentOrBeforeThePostIsABreach() {
        event(attempted(1, PublicationStep.FIRST_COMMENT));
        event(succeeded(1));
        event(attempted(2, PublicationStep.CREATE_POST));
        event(succeeded(2));
        event(attempted(3, PublicationStep.FIRST_COMMENT));
        event(succeeded(3));
        event(attempted(4, PublicationStep.FIRST_COMMENT));
        List<Breach> breaches = finish();
        assertThat(breaches).extracting(Breach::detail).anyMatch(d -> d.contains("before the post existed"))
                .anyMatch(d -> d.contains("a second comment"));
    }

    @Test
    void aSecondCreateAfterAnUnknownOneIsABreachEvenWithUploadsBetween() {
        event(attempted(1, PublicationStep.CREATE_POST));
        event(unknown(1));
        event(attempted(2, PublicationStep.UPLOAD_MEDIA));
        event(succeeded(2));
        event(attempted(3, PublicationStep.CREATE_POST));
        assertThat(finish()).extracting(Breach::rule).contains(3);
    }

    @Test
    void aHoldBeforeAnyCallIsClean() {
        event(held(0));
        event(new PublicationReleasedEvent(ID, WS, ChannelId.of("li-main"), 1, T0.plusSeconds(100)));
        event(attempted(1));
        event(succeeded(1));

        assertThat(finish()).isEmpty();
    }

    @Test
    void reportsAHoldThatLeftAnAttemptWithoutResult() {
        event(attempted(1));
        event(held(0));

        assertThat(finish()).extracting(Breach::rule).containsExactly(2);
    }
}
