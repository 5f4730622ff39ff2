package io.herald.adapters.linkedin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.herald.adapters.SandboxTestSupport;
import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxFault.Type;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.UnknownCause;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LinkedInAdapterSandboxTest extends SandboxTestSupport {

    private static final List<String> READ_WRITE = List.of("w_member_social", "r_member_social");

    private String author;
    private String token;
    private ChannelConnection connection;
    private final LinkedInAdapter adapter = linkedIn(SHORT_READ_TIMEOUT);

    @BeforeEach
    void registerMember() {
        author = "urn:li:person:" + unique("m");
        token = unique("AQV");
        sandbox.linkedInToken(token, author, READ_WRITE);
        connection = linkedInConnection(author, token, READ_WRITE);
    }

    private PublishRequest request(String text) {
        return publish(connection, new Content(null, text, null));
    }

    @Test
    void publishesWithTheUrnFromTheRestliHeader() {
        PublishOutcome outcome = result(adapter.publish(request("Hello LinkedIn")));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Published.class, published -> {
            assertThat(published.providerRef().id()).startsWith("urn:li:share:");
            assertThat(published.providerRef().url())
                    .isEqualTo("https://www.linkedin.com/feed/update/" + published.providerRef().id() + "/");
            assertThat(published.trace().httpStatus()).isEqualTo(201);
            assertThat(published.trace().providerTraceId()).isNotBlank();
        });
    }

    @Test
    void reservedCharactersSurviveTheRoundTrip() {
        String text = "Launch (beta) #herald @team [v2] {json} <b> *bold* _under_ ~tilde~ a|b back\\slash";
        PublishRequest request = request(text);

        PublishOutcome outcome = result(adapter.publish(request));

        assertThat(outcome).isInstanceOf(PublishOutcome.Published.class);
        assertThat(sandbox.truth("linkedin", author).get(0).path("text").asText()).isEqualTo(text);
        ReadBackOutcome readBack = result(adapter.readBack(readBack(request, clock.instant())));
        assertThat(readBack).isInstanceOfSatisfying(ReadBackOutcome.Found.class,
                found -> assertThat(found.providerRef().id()).isEqualTo(((PublishOutcome.Published) outcome).providerRef().id()));
    }

    @Test
    void duplicateNamesTheEarlierPost() {
        PublishOutcome first = result(adapter.publish(request("same words")));
        PublishOutcome second = result(adapter.publish(request("same words")));

        String earlier = ((PublishOutcome.Published) first).providerRef().id();
        assertThat(second).isInstanceOfSatisfying(PublishOutcome.DuplicateRefused.class, duplicate -> {
            assertThat(duplicate.earlierPost().id()).isEqualTo(earlier);
            assertThat(duplicate.earlierPost().url()).contains(earlier);
        });
        assertThat(second.trace().providerCode()).isEqualTo("DUPLICATE_POST");
    }

    @Test
    void rateLimitWithoutHeadersWaitsUntilMidnightUtc() {
        sandbox.fault(SandboxFault.of("linkedin", author, Type.RATE_LIMIT));

        PublishOutcome outcome = result(adapter.publish(request("daily limit")));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.RATE_LIMITED);
            assertThat(failed.errorCode()).isEqualTo("TOO_MANY_REQUESTS");
            Instant resumesAt = clock.instant().plus(failed.retryAfter());
            assertThat(resumesAt.atZone(java.time.ZoneOffset.UTC).toLocalTime().toSecondOfDay())
                    .isIn(0, 1, 86_399);
        });
    }

    @Test
    void rateLimitWithRetryAfterUsesIt() {
        sandbox.fault(SandboxFault.of("linkedin", author, Type.RATE_LIMIT).withRetryAfterSeconds(120));

        PublishOutcome outcome = result(adapter.publish(request("limit with header")));

        assertThat(((PublishOutcome.Failed) outcome).retryAfter()).isEqualTo(Duration.ofSeconds(120));
    }

    @Test
    void invalidTokenIsRejected() {
        sandbox.fault(SandboxFault.of("linkedin", author, Type.TOKEN_ERROR));

        PublishOutcome outcome = result(adapter.publish(request("bad token")));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.AuthLost.class,
                lost -> assertThat(lost.providerCode()).isEqualTo("INVALID_ACCESS_TOKEN"));
    }

    @Test
    void retiredVersionProvesNothingWasWrittenAndNamesTheFix() {
        LinkedInAdapter old = new LinkedInAdapter(new io.herald.adapters.http.ProviderHttp("linkedin",
                Duration.ofSeconds(2), SHORT_READ_TIMEOUT, clock), sandbox.linkedInApiUrl(), "202001");

        PublishOutcome outcome = result(old.publish(request("old version")));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.VersionRetired.class, retired -> {
            assertThat(retired.version()).isEqualTo("202001");
            assertThat(retired.providerCode()).isEqualTo("NONEXISTENT_VERSION");
            assertThat(retired.reason()).startsWith("API version retired; update herald.channels.linkedin.version");
        });
    }

    @Test
    void timeoutResetAndServerErrorAreUnknown() {
        sandbox.fault(SandboxFault.of("linkedin", author, Type.DELAY_THEN_CREATE).withDelayMillis(15_000));
        sandbox.fault(SandboxFault.of("linkedin", author, Type.RESET_AFTER_READ));
        sandbox.fault(SandboxFault.of("linkedin", author, Type.ERROR_5XX_WITH_EFFECT));

        PublishOutcome timeout = result(adapter.publish(request("one")));
        PublishOutcome reset = result(adapter.publish(request("two")));
        PublishOutcome serverError = result(adapter.publish(request("three")));

        assertThat(((PublishOutcome.OutcomeUnknown) timeout).cause()).isEqualTo(UnknownCause.READ_TIMEOUT);
        assertThat(((PublishOutcome.OutcomeUnknown) reset).cause()).isEqualTo(UnknownCause.CONNECTION_RESET);
        assertThat(((PublishOutcome.OutcomeUnknown) serverError).cause()).isEqualTo(UnknownCause.SERVER_ERROR);
        assertThat(sandbox.truth("linkedin", author)).extracting(n -> n.path("text").asText())
                .containsExactly("one", "three");
    }

    @Test
    void latePostIsFoundByReadBack() {
        sandbox.fault(SandboxFault.of("linkedin", author, Type.CREATE_AFTER).withDelayMillis(4_000));
        Instant started = clock.instant();
        PublishRequest request = request("late post");

        assertThat(result(adapter.publish(request))).isInstanceOf(PublishOutcome.OutcomeUnknown.class);
        await().atMost(Duration.ofSeconds(20)).until(() -> sandbox.truth("linkedin", author).size() == 1);

        assertThat(result(adapter.readBack(readBack(request, started)))).isInstanceOf(ReadBackOutcome.Found.class);
    }

    @Test
    void readBackPagesUntilOlderThanTheWindow() {
        Instant start = clock.instant();
        sandbox.seed("linkedin", author, "old match", null, start.minus(Duration.ofHours(3)));
        for (int i = 0; i < 150; i++) {
            sandbox.seed("linkedin", author, "recent " + i, null, start.minusSeconds(10));
        }

        ReadBackOutcome outcome = result(adapter.readBack(readBack(request("old match"), start)));

        assertThat(outcome).isInstanceOfSatisfying(ReadBackOutcome.NotFound.class,
                notFound -> assertThat(notFound.detail()).contains("2 page(s)"));
    }

    @Test
    void readingWithoutReadScopeIsUnavailable() {
        String writer = unique("AQW");
        sandbox.linkedInToken(writer, author, List.of("w_member_social"));
        ChannelConnection writeOnly = linkedInConnection(author, writer, List.of("w_member_social"));

        ReadBackOutcome outcome = result(adapter.readBack(readBack(publish(writeOnly,
                new Content(null, "x", null)), clock.instant())));
        CapabilityReport report = result(adapter.probe(writeOnly));

        assertThat(outcome).isInstanceOfSatisfying(ReadBackOutcome.Unavailable.class,
                u -> assertThat(u.reason()).startsWith("missing r_member_social"));
        assertThat(report.publish().available()).isTrue();
        assertThat(report.reconcile().available()).isFalse();
        assertThat(report.reconcile().reason()).contains("missing r_member_social");
    }

    @Test
    void probeWithReadScopeAllowsBoth() {
        CapabilityReport report = result(adapter.probe(connection));

        assertThat(report.publish().available()).isTrue();
        assertThat(report.reconcile().available()).isTrue();
    }
}
