package io.herald.adapters.facebook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.herald.adapters.SandboxTestSupport;
import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PostReadRequest;
import io.herald.adapters.port.PostReading;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxFault.Type;
import io.herald.sandbox.SandboxState.FacebookTokenKind;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.UnknownCause;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FacebookAdapterSandboxTest extends SandboxTestSupport {

    private String pageId;
    private String pageToken;
    private ChannelConnection connection;
    private final FacebookAdapter adapter = facebook(SHORT_READ_TIMEOUT);

    @BeforeEach
    void registerPage() {
        pageId = numericId();
        pageToken = unique("EAAPage");
        sandbox.facebookToken(pageToken, pageId, FacebookTokenKind.PAGE);
        connection = facebookConnection(pageId, pageToken, null);
    }

    private PublishRequest request(String text) {
        return publish(connection, new Content(null, text, null));
    }

    @Test
    void publishesAndReturnsThePostIdWithTrace() {
        PublishOutcome outcome = result(adapter.publish(publish(connection,
                new Content("ignored title", "Hello from Herald", "https://example.org/a"))));

        assertThat(outcome).isInstanceOf(PublishOutcome.Published.class);
        PublishOutcome.Published published = (PublishOutcome.Published) outcome;
        assertThat(published.providerRef().id()).startsWith(pageId + "_");
        assertThat(published.providerRef().url()).isEqualTo("https://www.facebook.com/" + published.providerRef().id());
        assertThat(published.trace().httpStatus()).isEqualTo(200);
        assertThat(published.trace().responseReceived()).isTrue();
        assertThat(published.trace().providerTraceId()).isNotBlank();
        assertThat(published.trace().requestFingerprint()).hasSize(64);
        assertThat(published.trace().target()).isEqualTo(pageId);
        assertThat(sandbox.truth("facebook", pageId)).hasSize(1);
        assertThat(sandbox.truth("facebook", pageId).get(0).path("link").asText()).isEqualTo("https://example.org/a");
    }

    @Test
    void aPostRemovedFromThePageAfterItsSuccessReadsAsGone() {
        PublishOutcome.Published published = (PublishOutcome.Published) result(adapter.publish(request("soon removed")));
        ProviderRef post = published.providerRef();
        assertThat(result(adapter.readPost(new PostReadRequest(post, null, connection))))
                .isInstanceOf(PostReading.Present.class);

        sandbox.send("DELETE", "/sandbox/_admin/facebook/" + pageId + "/posts/" + post.id(), null);

        assertThat(sandbox.truth("facebook", pageId)).isEmpty();
        assertThat(result(adapter.readPost(new PostReadRequest(post, null, connection))))
                .isInstanceOfSatisfying(PostReading.Gone.class,
                        gone -> assertThat(gone.detail()).contains(post.id()).doesNotContain(pageToken));
    }

    @Test
    void sameRequestHasSameFingerprintWhateverTheToken() {
        String otherToken = unique("EAAOther");
        sandbox.facebookToken(otherToken, pageId, FacebookTokenKind.PAGE);
        PublishOutcome first = result(adapter.publish(request("fingerprint text")));
        sandbox.fault(SandboxFault.of("facebook", pageId, Type.ERROR_5XX_NO_EFFECT));
        PublishOutcome second = result(adapter.publish(publish(facebookConnection(pageId, otherToken, null),
                new Content(null, "fingerprint text", null))));
        assertThat(second.trace().requestFingerprint()).isEqualTo(first.trace().requestFingerprint());
    }

    @Test
    void closedPortIsNotSent() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        FacebookAdapter unreachable = new FacebookAdapter(new io.herald.adapters.http.ProviderHttp("facebook",
                Duration.ofSeconds(2), SHORT_READ_TIMEOUT, clock), "http://127.0.0.1:" + port + "/v25.0");

        PublishOutcome outcome = result(unreachable.publish(request("never leaves")));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class,
                failed -> assertThat(failed.kind()).isEqualTo(FailureKind.NOT_SENT));
        assertThat(outcome.trace().sentAt()).isNull();
        assertThat(outcome.trace().responseReceived()).isFalse();
    }

    @Test
    void readTimeoutWithTheEffectDoneIsUnknown() {
        sandbox.fault(SandboxFault.of("facebook", pageId, Type.DELAY_THEN_CREATE).withDelayMillis(15_000));

        PublishOutcome outcome = result(adapter.publish(request("slow but done")));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class,
                unknown -> assertThat(unknown.cause()).isEqualTo(UnknownCause.READ_TIMEOUT));
        assertThat(outcome.trace().sentAt()).isNotNull();
        assertThat(outcome.trace().responseReceived()).isFalse();
        assertThat(sandbox.truth("facebook", pageId)).hasSize(1);
    }

    @Test
    void resetAfterReadIsUnknown() {
        sandbox.fault(SandboxFault.of("facebook", pageId, Type.RESET_AFTER_READ));

        PublishOutcome outcome = result(adapter.publish(request("cut off")));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class,
                unknown -> assertThat(unknown.cause()).isEqualTo(UnknownCause.CONNECTION_RESET));
    }

    @Test
    void serverErrorIsUnknownWithOrWithoutEffect() {
        sandbox.fault(SandboxFault.of("facebook", pageId, Type.ERROR_5XX_WITH_EFFECT));
        sandbox.fault(SandboxFault.of("facebook", pageId, Type.ERROR_5XX_NO_EFFECT));

        PublishOutcome withEffect = result(adapter.publish(request("five hundred one")));
        PublishOutcome withoutEffect = result(adapter.publish(request("five hundred two")));

        for (PublishOutcome outcome : new PublishOutcome[] {withEffect, withoutEffect}) {
            assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.OutcomeUnknown.class,
                    unknown -> assertThat(unknown.cause()).isEqualTo(UnknownCause.SERVER_ERROR));
            assertThat(outcome.trace().httpStatus()).isEqualTo(500);
            assertThat(outcome.trace().providerCode()).isEqualTo("2");
            assertThat(outcome.trace().providerTraceId()).isNotBlank();
        }
        assertThat(sandbox.truth("facebook", pageId)).hasSize(1);
    }

    @Test
    void pageRateLimitCarriesTheRegainDelay() {
        sandbox.fault(SandboxFault.of("facebook", pageId, Type.RATE_LIMIT).withRetryAfterSeconds(600));

        PublishOutcome outcome = result(adapter.publish(request("too often")));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class, failed -> {
            assertThat(failed.kind()).isEqualTo(FailureKind.RATE_LIMITED);
            assertThat(failed.errorCode()).isEqualTo("32");
            assertThat(failed.retryAfter()).isEqualTo(Duration.ofMinutes(10));
        });
    }

    @Test
    void applicationRateLimitUsesRetryAfter() {
        sandbox.fault(SandboxFault.of("facebook", pageId, Type.RATE_LIMIT).withProviderCode(4).withRetryAfterSeconds(90));
        sandbox.fault(SandboxFault.of("facebook", pageId, Type.RATE_LIMIT).withProviderCode(613));

        PublishOutcome.Failed withHeader = (PublishOutcome.Failed) result(adapter.publish(request("app limit")));
        PublishOutcome.Failed withoutDelay = (PublishOutcome.Failed) result(adapter.publish(request("custom limit")));

        assertThat(withHeader.kind()).isEqualTo(FailureKind.RATE_LIMITED);
        assertThat(withHeader.errorCode()).isEqualTo("4");
        assertThat(withHeader.trace().httpStatus()).isEqualTo(403);
        assertThat(withHeader.retryAfter()).isEqualTo(Duration.ofSeconds(90));
        assertThat(withoutDelay.kind()).isEqualTo(FailureKind.RATE_LIMITED);
        assertThat(withoutDelay.retryAfter()).isNull();
    }

    @Test
    void expiredTokenIsRejected() {
        sandbox.fault(SandboxFault.of("facebook", pageId, Type.TOKEN_ERROR));

        PublishOutcome outcome = result(adapter.publish(request("expired")));

        // expired credentials prove the write did not execute: a distinct outcome, not a rejection
        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.AuthLost.class, lost -> {
            assertThat(lost.providerCode()).isEqualTo("190/463");
            assertThat(lost.reason()).contains("expired").contains("Fix");
        });
        assertThat(outcome.trace().providerCode()).isEqualTo("190");
    }

    @Test
    void duplicateOnFirstAttemptIsDuplicateRefused() {
        sandbox.seed("facebook", pageId, "posted by hand", null, null);

        PublishOutcome outcome = result(adapter.publish(request("posted by hand")));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.DuplicateRefused.class,
                duplicate -> assertThat(duplicate.detail()).contains("506"));
        assertThat(outcome.trace().providerCode()).isEqualTo("506");
    }

    @Test
    void postCreatedAfterTheClientGaveUpIsFoundByReadBack() {
        sandbox.fault(SandboxFault.of("facebook", pageId, Type.CREATE_AFTER).withDelayMillis(4_000));
        Instant started = clock.instant();
        PublishRequest request = request("appears four seconds later");

        PublishOutcome outcome = result(adapter.publish(request));
        assertThat(outcome).isInstanceOf(PublishOutcome.OutcomeUnknown.class);
        await().atMost(Duration.ofSeconds(20)).until(() -> sandbox.truth("facebook", pageId).size() == 1);

        ReadBackOutcome found = result(adapter.readBack(readBack(request, started)));

        assertThat(found).isInstanceOfSatisfying(ReadBackOutcome.Found.class, f ->
                assertThat(f.providerRef().id()).isEqualTo(sandbox.truth("facebook", pageId).get(0).path("id").asText()));
    }

    @Test
    void readBackFindsNothingWhenNothingWasPosted() {
        sandbox.seed("facebook", pageId, "something else", null, null);

        ReadBackOutcome outcome = result(adapter.readBack(readBack(request("never posted"), clock.instant())));

        assertThat(outcome).isInstanceOf(ReadBackOutcome.NotFound.class);
    }

    @Test
    void readBackWithTwoMatchesIsUnknown() {
        sandbox.seed("facebook", pageId, "twice", null, null);
        sandbox.seed("facebook", pageId, "other", null, null);
        sandbox.seed("facebook", pageId, "twice", null, null);

        ReadBackOutcome outcome = result(adapter.readBack(readBack(request("twice"), clock.instant())));

        assertThat(outcome).isInstanceOf(ReadBackOutcome.Unknown.class);
    }

    @Test
    void readBackIgnoresPostsOutsideTheWindow() {
        sandbox.seed("facebook", pageId, "old text", null, clock.instant().minus(Duration.ofHours(2)));

        ReadBackOutcome outcome = result(adapter.readBack(readBack(request("old text"), clock.instant())));

        assertThat(outcome).isInstanceOf(ReadBackOutcome.NotFound.class);
    }

    @Test
    void readBackReadsEveryPageOfTheFeed() {
        Instant start = clock.instant();
        sandbox.seed("facebook", pageId, "the one we look for", "https://example.org/x", start.minusSeconds(60));
        for (int i = 0; i < 230; i++) {
            sandbox.seed("facebook", pageId, "filler " + i, null, start.minusSeconds(30));
        }

        ReadBackOutcome outcome = result(adapter.readBack(readBack(
                publish(connection, new Content(null, "the  one we look for ", "https://example.org/x")), start)));

        assertThat(outcome).isInstanceOfSatisfying(ReadBackOutcome.Found.class,
                found -> assertThat(found.evidence()).contains("231 posts in 4 page(s)"));
    }

    @Test
    void scheduledPostIsFoundAmongTheScheduledPosts() {
        PublishRequest scheduled = new PublishRequest(publicationId(unique("s")), 1,
                io.herald.contracts.publication.PublicationAction.PUBLISH, new Content(null, "tomorrow at nine", null),
                clock.instant().plus(Duration.ofDays(1)), connection);

        PublishOutcome outcome = result(adapter.publish(scheduled));
        ReadBackOutcome found = result(adapter.readBack(readBack(scheduled, clock.instant())));

        assertThat(outcome).isInstanceOf(PublishOutcome.Published.class);
        assertThat(sandbox.truth("facebook", pageId).get(0).path("status").asText()).isEqualTo("scheduled");
        assertThat(found).isInstanceOf(ReadBackOutcome.Found.class);
    }

    @Test
    void readingWithAUserTokenIsUnavailable() {
        String userToken = unique("EAAUser");
        sandbox.facebookToken(userToken, pageId, FacebookTokenKind.USER);
        ChannelConnection userReader = facebookConnection(pageId, pageToken, userToken);

        ReadBackOutcome outcome = result(adapter.readBack(readBack(publish(userReader,
                new Content(null, "x", null)), clock.instant())));
        CapabilityReport report = result(adapter.probe(userReader));

        assertThat(outcome).isInstanceOfSatisfying(ReadBackOutcome.Unavailable.class,
                u -> assertThat(u.reason()).contains("must be called with a Page Access Token"));
        assertThat(report.reconcile().available()).isFalse();
        assertThat(report.reconcile().reason()).contains("must be called with a Page Access Token");
        assertThat(report.publish().available()).isTrue();
    }

    @Test
    void probeWithAPageTokenAllowsBoth() {
        CapabilityReport report = result(adapter.probe(connection));

        assertThat(report.publish().available()).isTrue();
        assertThat(report.reconcile().available()).isTrue();
    }

    @Test
    void probeWithoutAnyTokenExplains() {
        CapabilityReport report = result(adapter.probe(facebookConnection(pageId, null, null)));

        assertThat(report.publish().available()).isFalse();
        assertThat(report.publish().reason()).contains("Page access token");
        assertThat(report.reconcile().available()).isFalse();
    }
}
