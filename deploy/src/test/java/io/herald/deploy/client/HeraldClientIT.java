package io.herald.deploy.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.client.ApiClient;
import io.herald.client.api.ChannelsApi;
import io.herald.client.api.PublicationsApi;
import io.herald.client.api.WebhooksApi;
import io.herald.client.api.WorkspacesApi;
import io.herald.client.model.ChannelConnectionRequest;
import io.herald.client.model.ContentRequest;
import io.herald.client.model.KeyRequest;
import io.herald.client.model.PublicationPage;
import io.herald.client.model.PublicationRequest;
import io.herald.client.model.PublicationView;
import io.herald.client.model.SigningSecretRequest;
import io.herald.client.model.WebhookRequest;
import io.herald.client.model.WorkspaceRequest;
import io.herald.client.support.HeraldRequestSigner;
import io.herald.client.support.HeraldWebhooks;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.webhooks.WebhookReceiver;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;

/**
 * The generated Java client drives a real Herald: a signing workspace publishes to the sandbox's Page,
 * and the calendar's endpoint checks the webhook that tells it so with the client's helper.
 */
class HeraldClientIT extends HeraldIntegrationTest {

    private static final String SIGNING_SECRET = "client-it-signing-secret-0123456789abcdef";

    private ApiClient client(String key, String signingSecret) {
        RestClient.Builder rest = ApiClient.buildRestClientBuilder();
        if (signingSecret != null) {
            rest.requestInterceptor(new HeraldRequestSigner(signingSecret));
        }
        ApiClient client = new ApiClient(rest.build()).setBasePath("http://localhost:" + port);
        client.setBearerToken(key);
        return client;
    }

    @Test
    void aSigningWorkspacePublishesReadsListsAndChecksItsWebhookThroughTheClient() throws InterruptedException {
        String ws = newWorkspace("client");
        String page = "43" + (System.nanoTime() % 10_000_000);
        String token = "EAAB-client-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");

        WorkspacesApi system = new WorkspacesApi(client(SYSTEM_KEY, null));
        assertThat(system.createWorkspace(new WorkspaceRequest().workspaceId(ws).name("Client")).getWorkspaceId())
                .isEqualTo(ws);
        String key = system.createApiKey(ws, new KeyRequest().roles(ALL_ROLES).label("client")).getKey();
        new ChannelsApi(client(key, null)).putChannel(ws, "fb-main",
                new ChannelConnectionRequest().type("facebook").pageId(page).pageAccessToken(token));
        WebhookReceiver receiver = new WebhookReceiver();
        receiver.start();
        try {
            String webhookSecret = new WebhooksApi(client(key, null)).putWebhook(ws, "calendar", new WebhookRequest()
                    .url(receiver.url("/hooks")).events(List.of("publication.succeeded"))).getSecret();
            await("the subscription reaches the projection", () -> jdbc.queryForObject(
                    "SELECT count(*) FROM webhook_subscription_view WHERE workspace_id = ?", Long.class, ws) == 1);
            new WorkspacesApi(client(key, null)).setSigningSecret(ws,
                    new SigningSecretRequest().secret(SIGNING_SECRET));
            publishSignedAndRead(ws, key, page);

            await("the delivery", () -> !receiver.received().isEmpty());
            WebhookReceiver.Received delivery = receiver.received().get(0);
            Map<String, List<String>> headers = Map.of("Webhook-Id", List.of(delivery.id()),
                    "Webhook-Timestamp", List.of(delivery.timestamp()),
                    "Webhook-Signature", List.of(delivery.signature()));
            HeraldWebhooks webhooks = new HeraldWebhooks(webhookSecret);
            webhooks.verify(delivery.body(), headers);
            assertThat(delivery.body()).contains("publication.succeeded");
            assertThatThrownBy(() -> webhooks.verify(delivery.body().replace("succeeded", "failed"), headers))
                    .isInstanceOf(HeraldWebhooks.InvalidWebhookException.class);
        } finally {
            receiver.stop();
        }
    }

    private void publishSignedAndRead(String ws, String key, String page) throws InterruptedException {
        PublicationRequest request = new PublicationRequest().calendarEntryId("entry-42").contentVersion(3L)
                .channelId("fb-main").action("publish").content(new ContentRequest().body("Sent by the Java client"));
        assertThatThrownBy(() -> new PublicationsApi(client(key, null)).requestPublication(ws, request))
                .as("the workspace requires signed requests")
                .isInstanceOfSatisfying(HttpClientErrorException.class, refused -> {
                    assertThat(refused.getStatusCode().value()).isEqualTo(401);
                    assertThat(refused.getResponseBodyAsString()).contains("signature_invalid");
                });

        PublicationsApi publications = new PublicationsApi(client(key, SIGNING_SECRET));
        PublicationView requested = publications.requestPublication(ws, request);
        assertThat(requested.getPublicationId()).startsWith("pub_");
        assertThat(requested.getChannelType()).isEqualTo(PublicationView.ChannelTypeEnum.FACEBOOK);

        PublicationView done = awaitSucceeded(publications, ws, requested.getPublicationId());
        assertThat(done.getProviderRef().getId()).isNotBlank();
        assertThat(done.getCalendarEntryId()).isEqualTo("entry-42");
        assertThat(sandboxTruth("facebook", page)).hasSize(1);

        PublicationPage listed = publications.listPublications(new PublicationsApi.ListPublicationsRequest()
                .ws(ws).status("SUCCEEDED").channelId("fb-main").limit(10));
        assertThat(listed.getItems()).extracting(PublicationView::getPublicationId)
                .containsExactly(requested.getPublicationId());
        assertThat(publications.requestPublication(ws, request).getPublicationId())
                .as("the same request again is the same publication").isEqualTo(requested.getPublicationId());
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + " did not happen in time");
            }
            Thread.sleep(100);
        }
    }

    /**
     * Polls once a second at most: a signature is accepted once, and one second is its resolution.
     * The view follows the event store, so the first reads may not find the publication yet.
     */
    private static PublicationView awaitSucceeded(PublicationsApi publications, String ws, String id)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        PublicationView last = null;
        while (System.nanoTime() < deadline) {
            try {
                last = publications.getPublication(ws, id, null);
                if (last.getStatus() == PublicationView.StatusEnum.SUCCEEDED) {
                    return last;
                }
            } catch (HttpClientErrorException.NotFound notYet) {
                last = null;
            }
            Thread.sleep(1_100);
        }
        throw new AssertionError("not SUCCEEDED in time: " + last);
    }
}
