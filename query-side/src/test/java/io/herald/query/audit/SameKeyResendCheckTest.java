package io.herald.query.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationResendDueEvent;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.UnknownCause;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rule 3's one exception as the verifier sees it: a repeat of an unknown create without a
 * NOT_FOUND between is accepted only as a same-key re-send on a {@code client_id} or
 * {@code provider_key} connection (the latter once, inside its window); anything else is a breach.
 */
class SameKeyResendCheckTest {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private static final Instant T0 = Instant.parse("2026-12-01T09:00:00Z");
    private static final PublicationId ID = PublicationId.of("pub_" + "b".repeat(64));
    private static final WorkspaceId WS = WorkspaceId.of("acme");
    private static final Duration WINDOW = Duration.ofMinutes(50);

    private final PublicationStreamCheck check = new PublicationStreamCheck(ID.value());
    private long sequence = 1;

    private void event(Object payload) {
        check.accept(sequence++, payload.getClass().getSimpleName(), JSON.valueToTree(payload));
    }

    private static Instant at(int n) {
        return T0.plusSeconds(n * 60L);
    }

    private static PublicationAttemptedEvent attempted(int n, AttemptTrigger trigger, String key) {
        return new PublicationAttemptedEvent(ID, WS, ChannelId.of("main"), n, trigger, key, "hash", at(n),
                at(n).plusSeconds(30), null, PublicationStep.CREATE_POST, null);
    }

    private static PublicationAttemptedEvent resend(int n) {
        return attempted(n, AttemptTrigger.RESEND_SAME_KEY, ID.value());
    }

    private static PublicationOutcomeUnknownEvent unknown(int n) {
        return new PublicationOutcomeUnknownEvent(ID, WS, n, UnknownCause.SERVER_ERROR, "502",
                AttemptTrace.nothingCameBack("did", at(n)), at(n).plusSeconds(2));
    }

    private static PublicationResendDueEvent resendDue(int unknownNo, RetrySafety safety, Instant originalStartedAt,
                                                       Instant until, int resendNo) {
        return new PublicationResendDueEvent(ID, WS, unknownNo, unknownNo + 1, PublicationStep.CREATE_POST, safety,
                ID.value(), originalStartedAt, until, resendNo, at(unknownNo).plusSeconds(2));
    }

    private static PublicationSucceededEvent succeeded(int n) {
        return new PublicationSucceededEvent(ID, WS, n, new ProviderRef("at://did/app.bsky.feed.post/3k", null), null,
                at(n).plusSeconds(1));
    }

    private List<Breach> finish() {
        return check.finish(at(10));
    }

    @Test
    void acceptsClientIdResendsWithTheSameKey() {
        event(attempted(1, AttemptTrigger.INITIAL, ID.value()));
        event(unknown(1));
        event(resendDue(1, RetrySafety.CLIENT_ID, at(1), null, 1));
        event(resend(2));
        event(unknown(2));
        event(resendDue(2, RetrySafety.CLIENT_ID, at(1), null, 2));
        event(resend(3));
        event(succeeded(3));

        assertThat(finish()).isEmpty();
    }

    @Test
    void acceptsOneProviderKeyResendInsideTheWindow() {
        event(attempted(1, AttemptTrigger.INITIAL, ID.value()));
        event(unknown(1));
        event(resendDue(1, RetrySafety.PROVIDER_KEY, at(1), at(1).plus(WINDOW), 1));
        event(resend(2));
        event(succeeded(2));

        assertThat(finish()).isEmpty();
    }

    @Test
    void reportsARepeatOnAReadBackConnection() {
        event(attempted(1, AttemptTrigger.INITIAL, ID.value()));
        event(unknown(1));
        event(resendDue(1, RetrySafety.READ_BACK, at(1), null, 1));
        event(resend(2));
        event(succeeded(2));

        assertThat(finish()).singleElement().satisfies(b -> {
            assertThat(b.rule()).isEqualTo(3);
            assertThat(b.detail()).contains("only on client_id or provider_key").contains("read_back");
        });
    }

    @Test
    void reportsAResendThatNothingMadeDue() {
        event(attempted(1, AttemptTrigger.INITIAL, ID.value()));
        event(unknown(1));
        event(resend(2));
        event(succeeded(2));

        assertThat(finish()).singleElement().satisfies(b -> {
            assertThat(b.rule()).isEqualTo(3);
            assertThat(b.detail()).contains("no re-send of attempt 1 was made due");
        });
    }

    @Test
    void reportsARepeatWithoutTheResendTriggerAsBefore() {
        event(attempted(1, AttemptTrigger.INITIAL, ID.value()));
        event(unknown(1));
        event(resendDue(1, RetrySafety.CLIENT_ID, at(1), null, 1));
        event(attempted(2, AttemptTrigger.RETRY, ID.value()));
        event(succeeded(2));

        assertThat(finish()).singleElement().satisfies(b -> {
            assertThat(b.rule()).isEqualTo(3);
            assertThat(b.detail()).endsWith("without a NOT_FOUND reconciliation in between");
        });
    }

    @Test
    void reportsAResendWithAnotherKey() {
        event(attempted(1, AttemptTrigger.INITIAL, ID.value()));
        event(unknown(1));
        event(resendDue(1, RetrySafety.CLIENT_ID, at(1), null, 1));
        event(attempted(2, AttemptTrigger.RESEND_SAME_KEY, "pub_other"));
        event(succeeded(2));

        assertThat(finish()).singleElement().satisfies(b -> {
            assertThat(b.rule()).isEqualTo(3);
            assertThat(b.detail()).contains("must carry the key").contains("pub_other");
        });
    }

    @Test
    void reportsASecondProviderKeyResend() {
        event(attempted(1, AttemptTrigger.INITIAL, ID.value()));
        event(unknown(1));
        event(resendDue(1, RetrySafety.PROVIDER_KEY, at(1), at(1).plus(WINDOW), 1));
        event(resend(2));
        event(unknown(2));
        event(resendDue(2, RetrySafety.PROVIDER_KEY, at(1), at(1).plus(WINDOW), 2));
        event(resend(3));
        event(succeeded(3));

        assertThat(finish()).singleElement().satisfies(b -> {
            assertThat(b.rule()).isEqualTo(3);
            assertThat(b.sequence()).isEqualTo(7);
            assertThat(b.detail()).contains("allows one re-send");
        });
    }

    @Test
    void reportsAProviderKeyResendAfterTheWindow() {
        event(attempted(1, AttemptTrigger.INITIAL, ID.value()));
        event(unknown(1));
        event(resendDue(1, RetrySafety.PROVIDER_KEY, at(1), at(1).plusSeconds(30), 1));
        event(resend(2));
        event(succeeded(2));

        assertThat(finish()).singleElement().satisfies(b -> {
            assertThat(b.rule()).isEqualTo(3);
            assertThat(b.detail()).contains("inside the provider's window");
        });
    }

    @Test
    void reportsAProviderKeyWindowCountedFromALaterSend() {
        event(attempted(1, AttemptTrigger.INITIAL, ID.value()));
        event(unknown(1));
        event(resendDue(1, RetrySafety.PROVIDER_KEY, at(2), at(2).plus(WINDOW), 1));
        event(resend(2));
        event(succeeded(2));

        assertThat(finish()).singleElement().satisfies(b -> {
            assertThat(b.rule()).isEqualTo(3);
            assertThat(b.detail()).contains("counts from the first send");
        });
    }
}
