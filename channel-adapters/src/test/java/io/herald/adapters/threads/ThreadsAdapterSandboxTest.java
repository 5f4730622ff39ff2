package io.herald.adapters.threads;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.herald.adapters.SandboxTestSupport;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.CommentRequest;
import io.herald.adapters.port.PostChangeRequest;
import io.herald.adapters.port.PostReadRequest;
import io.herald.adapters.port.PostReading;
import io.herald.adapters.port.PrepareRequest;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.UploadedMedia;
import io.herald.sandbox.threads.ThreadsFaults;
import io.herald.sandbox.threads.ThreadsSandboxClient;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Threads adapter against the sandbox's Threads API over real HTTP; the sandbox fetches each
 * image from a small server of this test, as Threads fetches it from Herald's public address.
 */
class ThreadsAdapterSandboxTest extends SandboxTestSupport {

    private final ThreadsSandboxClient threads = new ThreadsSandboxClient(server.baseUrl());
    private final ThreadsAdapter adapter = new ThreadsAdapter(new ProviderHttp("threads", Duration.ofSeconds(2),
            SHORT_READ_TIMEOUT, clock), threads.apiUrl(), Duration.ofSeconds(10));
    private HttpServer images;
    private String user;
    private String token;
    private ChannelConnection connection;

    @BeforeEach
    void user() throws IOException {
        token = unique("th-token-");
        user = threads.user(unique("user"), token);
        threads.settings(user, 50L, null, null, null);
        connection = new ChannelConnection(new WorkspaceId("acme"), new ChannelId("th-" + token), ThreadsPlugin.TYPE,
                new ThreadsSettings(user), new ThreadsSecrets(token, null), false);
        byte[] png = png();
        images = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        images.createContext("/img/", exchange -> {
            boolean found = exchange.getRequestURI().getPath().endsWith(".png");
            exchange.getResponseHeaders().add("Content-Type", found ? "image/png" : "text/plain");
            exchange.sendResponseHeaders(found ? 200 : 404, found ? png.length : -1);
            if (found) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(png);
                }
            }
            exchange.close();
        });
        images.start();
    }

    @AfterEach
    void stop() {
        images.stop(0);
    }

    private static byte[] png() throws IOException {
        BufferedImage image = new BufferedImage(4, 3, BufferedImage.TYPE_INT_RGB);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(image, "png", out);
        return out.toByteArray();
    }

    private PrepareRequest.Image image(String name) {
        return new PrepareRequest.Image(MediaId.of("med_" + "a".repeat(64)), URI.create("http://127.0.0.1:"
                + images.getAddress().getPort() + "/img/" + name), "image/png", "alt " + name);
    }

    private PrepareRequest prepare(Content content, List<PrepareRequest.Image> pictures) {
        return new PrepareRequest(publicationId(unique("e")), 1, PublicationAction.PUBLISH, content, pictures,
                connection, Instant.now());
    }

    private PublishRequest publishOf(Content content, ProviderRef container) {
        return new PublishRequest(publicationId(unique("e")), 1, PublicationAction.PUBLISH, content, null,
                connection, List.of(new UploadedMedia(null, null, container)));
    }

    private ProviderRef container(Content content, List<PrepareRequest.Image> pictures) {
        PublishOutcome outcome = result(adapter.prepare(prepare(content, pictures)));
        assertThat(outcome).as(outcome.toString()).isInstanceOf(PublishOutcome.Published.class);
        return ((PublishOutcome.Published) outcome).providerRef();
    }

    private PublishOutcome publishWhenReady(PublishRequest request) {
        for (int i = 0; i < 40; i++) {
            PublishOutcome outcome = result(adapter.publish(request));
            if (!(outcome instanceof PublishOutcome.Failed failed && failed.kind() == FailureKind.NOT_READY)) {
                return outcome;
            }
            sleep(100);
        }
        throw new AssertionError("the container never finished");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private List<JsonNode> live() {
        List<JsonNode> posts = new ArrayList<>();
        threads.threads(user).forEach(p -> {
            if (!p.get("deleted").asBoolean() && p.get("replyToId").isNull()) {
                posts.add(p);
            }
        });
        return posts;
    }

    private ReadBackRequest readBackOf(PublishRequest request, Instant startedAt) {
        return new ReadBackRequest(request.publicationId(), 1, PublicationAction.PUBLISH, request.content(),
                startedAt, connection, ThreadsPlugin.PUBLISH_CONTAINER, null, null, null, request.prepared());
    }

    @Test
    void aTextPostIsAContainerThenItsPublishAndTheReadBackFindsIt() {
        Content content = new Content(null, "Hello Threads", "https://example.com/a");
        Instant startedAt = Instant.now();
        ProviderRef container = container(content, List.of());
        // not ready within the first moment: nothing published, polled again
        PublishRequest request = publishOf(content, container);
        PublishOutcome published = publishWhenReady(request);
        assertThat(published).as(published.toString()).isInstanceOf(PublishOutcome.Published.class);
        ProviderRef post = ((PublishOutcome.Published) published).providerRef();
        assertThat(post.url()).contains("/post/" + post.id());
        assertThat(live()).hasSize(1);
        assertThat(live().get(0).get("text").asText()).isEqualTo("Hello Threads\n\nhttps://example.com/a");

        ReadBackOutcome found = result(adapter.readBack(readBackOf(request, startedAt)));
        assertThat(found).as(found.toString()).isInstanceOf(ReadBackOutcome.Found.class);
        assertThat(((ReadBackOutcome.Found) found).providerRef().id()).isEqualTo(post.id());
        PostReading reading = result(adapter.readPost(new PostReadRequest(post, content, connection)));
        assertThat(reading).isEqualTo(new PostReading.Present(true, "the thread " + post.id() + " exists"));
    }

    @Test
    void anImageAndACarouselAreFetchedByTheProvider() {
        ProviderRef one = container(new Content(null, "One", null), List.of(image("1.png")));
        assertThat(publishWhenReady(publishOf(new Content(null, "One", null), one)))
                .isInstanceOf(PublishOutcome.Published.class);
        ProviderRef carousel = container(new Content(null, "Three", null),
                List.of(image("1.png"), image("2.png"), image("3.png")));
        assertThat(publishWhenReady(publishOf(new Content(null, "Three", null), carousel)))
                .isInstanceOf(PublishOutcome.Published.class);
        assertThat(live()).extracting(p -> p.get("mediaType").asText()).containsExactlyInAnyOrder("IMAGE",
                "CAROUSEL");
        assertThat(threads.fetches(user)).hasSize(4);
    }

    @Test
    void anImageThreadsCannotFetchFailsThePublishWithItsError() {
        ProviderRef broken = container(new Content(null, "Broken", null), List.of(image("missing.gif")));
        PublishOutcome outcome = publishWhenReady(publishOf(new Content(null, "Broken", null), broken));
        assertThat(outcome).as(outcome.toString()).isInstanceOf(PublishOutcome.Failed.class);
        assertThat(((PublishOutcome.Failed) outcome).kind()).isEqualTo(FailureKind.REJECTED);
        assertThat(((PublishOutcome.Failed) outcome).errorCode()).isEqualTo("container_error");
        assertThat(live()).isEmpty();
    }

    @Test
    void mediaNotFoundAfterThePublishIsUnknownAndTheContainerSaysPublished() {
        Content content = new Content(null, "Ambiguous", null);
        Instant startedAt = Instant.now();
        PublishRequest request = publishOf(content, container(content, List.of()));
        sleep(200);
        threads.fault(new ThreadsFaults.Fault(user, ThreadsFaults.Operation.PUBLISH,
                ThreadsFaults.Type.MEDIA_NOT_FOUND_AFTER_PUBLISH, 0, 1));
        PublishOutcome outcome = publishWhenReady(request);
        assertThat(outcome).as(outcome.toString()).isInstanceOf(PublishOutcome.OutcomeUnknown.class);
        assertThat(result(adapter.readBack(readBackOf(request, startedAt))))
                .isInstanceOf(ReadBackOutcome.Found.class);
        assertThat(live()).hasSize(1);
    }

    @Test
    void aPublishThatNeverHappenedReadsBackNotFoundAndTheSameContainerPublishesLater() {
        Content content = new Content(null, "Later", null);
        Instant startedAt = Instant.now();
        PublishRequest request = publishOf(content, container(content, List.of()));
        sleep(200);
        threads.fault(new ThreadsFaults.Fault(user, ThreadsFaults.Operation.PUBLISH,
                ThreadsFaults.Type.HOLD_BEFORE_PUBLISH, 15_000, 1));
        assertThat(publishWhenReady(request)).isInstanceOf(PublishOutcome.OutcomeUnknown.class);
        assertThat(result(adapter.readBack(readBackOf(request, startedAt)))).isInstanceOf(ReadBackOutcome.NotFound.class);
        assertThat(publishWhenReady(request)).isInstanceOf(PublishOutcome.Published.class);
        assertThat(live()).hasSize(1);
        assertThat(threads.containers(user)).hasSize(1);
    }

    @Test
    void anExpiredContainerIsPreparedAgain() {
        Content content = new Content(null, "Expired", null);
        ProviderRef container = container(content, List.of());
        threads.expire(container.id());
        PublishOutcome outcome = result(adapter.publish(publishOf(content, container)));
        assertThat(outcome).isInstanceOf(PublishOutcome.Failed.class);
        assertThat(((PublishOutcome.Failed) outcome).errorCode()).isEqualTo(PublicationFailedEvent.PREPARATION_EXPIRED);
    }

    @Test
    void aFirstCommentIsAReplyAndADeleteRemovesThePost() {
        Content content = new Content(null, "With reply", null);
        ProviderRef post = ((PublishOutcome.Published) publishWhenReady(publishOf(content,
                container(content, List.of())))).providerRef();
        PublishOutcome reply = result(adapter.comment(new CommentRequest(publicationId(unique("c")), 1, post,
                "First!", connection)));
        assertThat(reply).as(reply.toString()).isInstanceOf(PublishOutcome.Published.class);
        JsonNode all = threads.threads(user);
        assertThat(all.findValuesAsText("replyToId")).contains(post.id());

        PublishOutcome deleted = result(adapter.delete(new PostChangeRequest(publicationId(unique("d")), 1,
                PublicationAction.DELETE, null, post, connection)));
        assertThat(deleted).isInstanceOf(PublishOutcome.Published.class);
        assertThat(live()).isEmpty();
        // deleting it again is done as well
        assertThat(result(adapter.delete(new PostChangeRequest(publicationId(unique("d")), 1,
                PublicationAction.DELETE, null, post, connection)))).isInstanceOf(PublishOutcome.Published.class);
        assertThat(result(adapter.readPost(new PostReadRequest(post, null, connection))))
                .isInstanceOf(PostReading.Gone.class);
    }

    @Test
    void theProbeConfirmsTheUserAndALostTokenIsSaid() {
        CapabilityReport report = result(adapter.probe(connection));
        assertThat(report.publish().available()).as(report.toString()).isTrue();
        assertThat(report.reconcile().available()).isTrue();
        threads.revoke(token);
        CapabilityReport lost = result(adapter.probe(connection));
        assertThat(lost.authLost()).isNotNull().doesNotContain(token);
    }

    private PublishOutcome reply(ProviderRef post, String text) {
        return result(adapter.comment(new CommentRequest(publicationId(unique("c")), 1, post, text, connection)));
    }

    private ReadBackRequest replyReadBack(ProviderRef post, String text) {
        return new ReadBackRequest(publicationId(unique("c")), 1, PublicationAction.PUBLISH,
                new Content(null, "the thread", null, List.of(), text), Instant.now().minusSeconds(60), connection,
                io.herald.contracts.publication.PublicationStep.FIRST_COMMENT, post);
    }

    private List<JsonNode> repliesTo(ProviderRef post) {
        List<JsonNode> replies = new ArrayList<>();
        threads.threads(user).forEach(p -> {
            if (post.id().equals(p.get("replyToId").asText(null)) && !p.get("deleted").asBoolean()) {
                replies.add(p);
            }
        });
        return replies;
    }

    @Test
    void aReplyWhosePublishAnswerWasLostIsFoundAmongThePostsReplies() {
        Content content = new Content(null, "Reply answer lost", null);
        ProviderRef post = ((PublishOutcome.Published) publishWhenReady(publishOf(content,
                container(content, List.of())))).providerRef();
        // the reply is published, and its answer comes after the client gave up
        threads.fault(new ThreadsFaults.Fault(user, ThreadsFaults.Operation.PUBLISH,
                ThreadsFaults.Type.HOLD_AFTER_PUBLISH, 6_000, 1));
        PublishOutcome lost = reply(post, "Lost but made");
        assertThat(lost).as(lost.toString()).isInstanceOf(PublishOutcome.OutcomeUnknown.class);
        assertThat(repliesTo(post)).hasSize(1);

        ReadBackOutcome found = result(adapter.readBack(replyReadBack(post, "Lost but made")));
        assertThat(found).as(found.toString()).isInstanceOf(ReadBackOutcome.Found.class);
        assertThat(((ReadBackOutcome.Found) found).providerRef().id()).isEqualTo(repliesTo(post).get(0).get("id")
                .asText());
    }

    @Test
    void aReplyWhosePublishNeverHappenedIsNotFoundAmongThePostsReplies() {
        Content content = new Content(null, "Reply never made", null);
        ProviderRef post = ((PublishOutcome.Published) publishWhenReady(publishOf(content,
                container(content, List.of())))).providerRef();
        // the publish is held and answered 500 without publishing: the client gave up before
        threads.fault(new ThreadsFaults.Fault(user, ThreadsFaults.Operation.PUBLISH,
                ThreadsFaults.Type.HOLD_BEFORE_PUBLISH, 6_000, 1));
        PublishOutcome lost = reply(post, "Never made");
        assertThat(lost).as(lost.toString()).isInstanceOf(PublishOutcome.OutcomeUnknown.class);
        assertThat(repliesTo(post)).isEmpty();

        ReadBackOutcome notFound = result(adapter.readBack(replyReadBack(post, "Never made")));
        assertThat(notFound).as(notFound.toString()).isInstanceOf(ReadBackOutcome.NotFound.class);
    }

    @Test
    void overThePublishingLimitThePublishIsNotSentAndWaitsUntilTheWindowRolls() {
        threads.settings(user, 50L, 1, 1, 3_000L);
        Content first = new Content(null, "First of the window", null);
        assertThat(publishWhenReady(publishOf(first, container(first, List.of()))))
                .isInstanceOf(PublishOutcome.Published.class);
        Content second = new Content(null, "Second of the window", null);
        PublishRequest request = publishOf(second, container(second, List.of()));
        PublishOutcome limited = publishWhenReady(request);
        assertThat(limited).as(limited.toString()).isInstanceOf(PublishOutcome.Failed.class);
        PublishOutcome.Failed failed = (PublishOutcome.Failed) limited;
        assertThat(failed.kind()).isEqualTo(FailureKind.RATE_LIMITED);
        assertThat(failed.errorCode()).isEqualTo("publishing_limit_reached");
        // a sixth of the 3 s window, and a second
        assertThat(failed.retryAfter()).isEqualTo(Duration.ofMillis(1_500));
        assertThat(live()).hasSize(1);
        assertThat(threads.containers(user).get(0).get("status").asText()).isEqualTo("FINISHED");

        // the reply limit is read apart: one reply fits, the second waits
        ProviderRef post = new ProviderRef(live().get(0).get("id").asText(), null);
        assertThat(reply(post, "One reply")).isInstanceOf(PublishOutcome.Published.class);
        PublishOutcome secondReply = reply(post, "Two replies");
        assertThat(secondReply).as(secondReply.toString()).isInstanceOf(PublishOutcome.Failed.class);
        assertThat(((PublishOutcome.Failed) secondReply).kind()).isEqualTo(FailureKind.RATE_LIMITED);

        sleep(3_200);
        assertThat(publishWhenReady(request)).isInstanceOf(PublishOutcome.Published.class);
        assertThat(live()).hasSize(2);
    }

    @Test
    void aTokenOldEnoughIsRenewedForSixtyDaysAndTheNewOneWorks() {
        var renewed = result(adapter.tokens().refresh(connection));
        assertThat(renewed).as(renewed.toString()).isInstanceOf(io.herald.adapters.port.TokenRefresh.Result.Renewed.class);
        var result = (io.herald.adapters.port.TokenRefresh.Result.Renewed) renewed;
        assertThat(result.expiresAt()).isAfter(Instant.now().plus(Duration.ofDays(59)));
        ThreadsSecrets secrets = (ThreadsSecrets) result.secrets();
        assertThat(secrets.accessToken()).isNotEqualTo(token);
        assertThat(threads.tokens(user).findValuesAsText("token")).contains(secrets.accessToken());
        ChannelConnection renewedConnection = new ChannelConnection(connection.workspaceId(), connection.channelId(),
                ThreadsPlugin.TYPE, new ThreadsSettings(user), secrets, false);
        assertThat(result(adapter.probe(renewedConnection)).publish().available()).isTrue();
        // the new token is younger than a day: refreshing it again is not yet allowed
        var again = result(adapter.tokens().refresh(renewedConnection));
        assertThat(again).as(again.toString()).isInstanceOf(io.herald.adapters.port.TokenRefresh.Result.NotYet.class);
    }

    @Test
    void aTokenTooNewIsNotYetAndARevokedOneIsInvalid() {
        String young = unique("th-young-");
        String youngUser = threads.user(unique("young"), young, null, 3_600L);
        ChannelConnection fresh = new ChannelConnection(new WorkspaceId("acme"), new ChannelId("th-" + young),
                ThreadsPlugin.TYPE, new ThreadsSettings(youngUser), new ThreadsSecrets(young, null), false);
        var notYet = result(adapter.tokens().refresh(fresh));
        assertThat(notYet).as(notYet.toString()).isInstanceOf(io.herald.adapters.port.TokenRefresh.Result.NotYet.class);
        assertThat(notYet.toString()).contains("too new").doesNotContain(young);

        threads.revoke(token);
        var invalid = result(adapter.tokens().refresh(connection));
        assertThat(invalid).as(invalid.toString())
                .isInstanceOf(io.herald.adapters.port.TokenRefresh.Result.Invalid.class);
        assertThat(((io.herald.adapters.port.TokenRefresh.Result.Invalid) invalid).providerCode()).isEqualTo("190/460");
        assertThat(invalid.toString()).doesNotContain(token);
    }
}
