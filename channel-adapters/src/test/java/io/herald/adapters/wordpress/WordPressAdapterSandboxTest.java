package io.herald.adapters.wordpress;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.UnknownCause;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class WordPressAdapterSandboxTest extends SandboxTestSupport {

    private static final String PASSWORD = "abcd EFGH ijkl MNOP qrst UVWX";

    private String site;
    private ChannelConnection withPlugin;
    private ChannelConnection withoutPlugin;
    private final WordPressAdapter adapter = wordPress(SHORT_READ_TIMEOUT);

    @BeforeEach
    void registerSites() {
        site = unique("blog");
        String stock = unique("stock");
        sandbox.wordPressSite(site, "editor", PASSWORD.replace(" ", ""), true);
        sandbox.wordPressSite(stock, "editor", PASSWORD.replace(" ", ""), false);
        withPlugin = wordPressConnection(sandbox.wordPressSiteUrl(site), "editor", PASSWORD);
        withoutPlugin = wordPressConnection(sandbox.wordPressSiteUrl(stock), "editor", PASSWORD);
    }

    @Test
    void publishesWithTheMetaKeyAndFindsThePostByIt() {
        PublishRequest request = publish(withPlugin, new Content("Title", "Body text", null));

        PublishOutcome outcome = result(adapter.publish(request));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Published.class, published -> {
            assertThat(published.reconcileCapabilityChange()).isNull();
            assertThat(published.providerRef().url()).contains("?p=" + published.providerRef().id());
            assertThat(published.trace().httpStatus()).isEqualTo(201);
        });
        assertThat(sandbox.truth("wordpress", site).get(0).path("publicationMeta").asText())
                .isEqualTo(request.publicationId().value());
        ReadBackOutcome found = result(adapter.readBack(readBack(request, clock.instant())));
        assertThat(found).isInstanceOfSatisfying(ReadBackOutcome.Found.class, f -> assertThat(f.providerRef().id())
                .isEqualTo(((PublishOutcome.Published) outcome).providerRef().id()));
    }

    @Test
    void draftsAndScheduledPostsAreFoundToo() {
        PublishRequest draft = new PublishRequest(publicationId(unique("e")), 1, PublicationAction.DRAFT,
                new Content("Draft", "draft body", null), null, withPlugin);
        PublishRequest scheduled = new PublishRequest(publicationId(unique("e")), 1, PublicationAction.PUBLISH,
                new Content("Later", "scheduled body", null), clock.instant().plus(Duration.ofDays(2)), withPlugin);

        result(adapter.publish(draft));
        result(adapter.publish(scheduled));

        assertThat(sandbox.truth("wordpress", site)).extracting(n -> n.path("status").asText())
                .containsExactly("draft", "future");
        assertThat(result(adapter.readBack(readBack(draft, clock.instant())))).isInstanceOf(ReadBackOutcome.Found.class);
        assertThat(result(adapter.readBack(readBack(scheduled, clock.instant())))).isInstanceOf(ReadBackOutcome.Found.class);
    }

    @Test
    void readBackFindsNothingForAnotherPublication() {
        result(adapter.publish(publish(withPlugin, new Content("T", "one post", null))));

        ReadBackOutcome outcome = result(adapter.readBack(readBack(
                publish(withPlugin, new Content("T", "never sent", null)), clock.instant())));

        assertThat(outcome).isInstanceOf(ReadBackOutcome.NotFound.class);
    }

    @Test
    void readBackBelievesOnlyPostsWrittenByTheConnectionsOwnUser() throws Exception {
        PublishRequest request = publish(withPlugin, new Content("T", "claimed by someone else", null));
        // another user of the site (id 2) writes a post carrying this publication's id
        HttpResponse<String> planted = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(sandbox.wordPressSiteUrl(site) + "/?rest_route=/wp/v2/posts"))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        ("editor:" + PASSWORD).getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"title\":\"T\",\"content\":\"planted\",\"status\":"
                        + "\"publish\",\"author\":2,\"meta\":{\"" + WordPressAdapter.META_KEY + "\":\""
                        + request.publicationId().value() + "\"}}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(planted.statusCode()).as(planted.body()).isEqualTo(201);

        ReadBackOutcome beforeOwnPost = result(adapter.readBack(readBack(request, clock.instant())));
        PublishOutcome published = result(adapter.publish(request));
        ReadBackOutcome afterOwnPost = result(adapter.readBack(readBack(request, clock.instant())));

        assertThat(beforeOwnPost).isInstanceOfSatisfying(ReadBackOutcome.NotFound.class,
                notFound -> assertThat(notFound.detail()).contains("1 post(s) by other users"));
        assertThat(afterOwnPost).isInstanceOfSatisfying(ReadBackOutcome.Found.class, found -> assertThat(
                found.providerRef().id()).isEqualTo(((PublishOutcome.Published) published).providerRef().id()));
    }

    @Test
    void withoutThePluginPublishingWorksButReadBackIsUnavailable() {
        PublishRequest request = publish(withoutPlugin, new Content("T", "stock site", null));

        PublishOutcome outcome = result(adapter.publish(request));
        CapabilityReport report = result(adapter.probe(withoutPlugin));
        ReadBackOutcome readBack = result(adapter.readBack(readBack(request, clock.instant())));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Published.class, published -> {
            assertThat(published.reconcileCapabilityChange()).isNotNull();
            assertThat(published.reconcileCapabilityChange().available()).isFalse();
            assertThat(published.reconcileCapabilityChange().reason()).contains("install the Herald mu-plugin");
        });
        assertThat(report.publish().available()).isTrue();
        assertThat(report.reconcile().available()).isFalse();
        assertThat(report.reconcile().reason()).contains("install the Herald mu-plugin");
        assertThat(readBack).isInstanceOf(ReadBackOutcome.Unavailable.class);
    }

    @Test
    void probeWithThePluginAllowsBoth() {
        CapabilityReport report = result(adapter.probe(withPlugin));

        assertThat(report.publish().available()).isTrue();
        assertThat(report.reconcile().available()).isTrue();
    }

    @Test
    void wrongPasswordIsRejectedAndProbeSaysSo() {
        ChannelConnection wrong = wordPressConnection(sandbox.wordPressSiteUrl(site), "editor", "wrong pass word");

        PublishOutcome outcome = result(adapter.publish(publish(wrong, new Content("T", "x", null))));
        CapabilityReport report = result(adapter.probe(wrong));

        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.AuthLost.class,
                lost -> assertThat(lost.providerCode()).isEqualTo("rest_cannot_create"));
        assertThat(report.publish().available()).isFalse();
        assertThat(report.publish().reason()).isEqualTo("WordPress rejected the application password");
        assertThat(report.authLost()).contains("HTTP 401 on users/me");
    }

    @Test
    void faultsAreClassified() {
        sandbox.fault(SandboxFault.of("wordpress", site, Type.DELAY_THEN_CREATE).withDelayMillis(15_000));
        sandbox.fault(SandboxFault.of("wordpress", site, Type.RESET_AFTER_READ));
        sandbox.fault(SandboxFault.of("wordpress", site, Type.ERROR_5XX_NO_EFFECT));
        sandbox.fault(SandboxFault.of("wordpress", site, Type.RATE_LIMIT).withRetryAfterSeconds(30));
        sandbox.fault(SandboxFault.of("wordpress", site, Type.TOKEN_ERROR));

        PublishRequest timedOut = publish(withPlugin, new Content("T", "a", null));
        PublishOutcome timeout = result(adapter.publish(timedOut));
        PublishOutcome reset = result(adapter.publish(publish(withPlugin, new Content("T", "b", null))));
        PublishOutcome serverError = result(adapter.publish(publish(withPlugin, new Content("T", "c", null))));
        PublishOutcome limited = result(adapter.publish(publish(withPlugin, new Content("T", "d", null))));
        PublishOutcome rejected = result(adapter.publish(publish(withPlugin, new Content("T", "e", null))));

        assertThat(((PublishOutcome.OutcomeUnknown) timeout).cause()).isEqualTo(UnknownCause.READ_TIMEOUT);
        assertThat(((PublishOutcome.OutcomeUnknown) reset).cause()).isEqualTo(UnknownCause.CONNECTION_RESET);
        assertThat(((PublishOutcome.OutcomeUnknown) serverError).cause()).isEqualTo(UnknownCause.SERVER_ERROR);
        assertThat(((PublishOutcome.Failed) limited).kind()).isEqualTo(FailureKind.RATE_LIMITED);
        assertThat(((PublishOutcome.Failed) limited).retryAfter()).isEqualTo(Duration.ofSeconds(30));
        assertThat(rejected).isInstanceOf(PublishOutcome.AuthLost.class);
        // The timed-out request took effect: read-back finds it by the meta key.
        assertThat(result(adapter.readBack(readBack(timedOut, Instant.now())))).isInstanceOf(ReadBackOutcome.Found.class);
    }

    @Test
    void sitePathWithWpJsonPrefixAlsoAnswers() {
        io.herald.adapters.http.ProviderHttp http = new io.herald.adapters.http.ProviderHttp("wordpress",
                Duration.ofSeconds(2), Duration.ofSeconds(5), clock);
        var exchange = result(http.send(new io.herald.adapters.http.OutgoingRequest("OPTIONS",
                java.net.URI.create(sandbox.wordPressSiteUrl(site) + "/wp-json/wp/v2/posts"),
                java.util.Map.of(), null, null, null, site, java.util.List.of())));

        assertThat(WordPressProbe.metaSupport(exchange).available()).isTrue();
    }
}
