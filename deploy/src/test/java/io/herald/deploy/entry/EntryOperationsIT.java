package io.herald.deploy.entry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Update and delete of an entry's post, end to end against the provider sandbox over real HTTP:
 * the entry's order (waits, SUPERSEDED, nothing_to_change) and the converging steps' read-back
 * after a timed-out first try. Test timings: provider read timeout 2 s, settle delay 3 s.
 */
class EntryOperationsIT extends HeraldIntegrationTest {

    private static final AtomicInteger TARGETS = new AtomicInteger(5000);
    /** Longer than the read timeout: the first try times out, and its late effect comes after the test. */
    private static final String TIMES_OUT = ",\"delayMillis\":25000";

    private String ws;

    private String publications() {
        return "/api/v1/workspaces/" + ws + "/publications";
    }

    private void fault(String provider, String target, String type, String operation, String extra) {
        sandbox("POST", "/faults", "{\"provider\":\"" + provider + "\",\"target\":\"" + target + "\",\"type\":\""
                + type + "\",\"operation\":\"" + operation + "\"" + extra + "}");
    }

    private String facebookPage(String channel) {
        String page = "8" + TARGETS.incrementAndGet();
        String token = "EAAB-entry-page-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel,
                "{\"type\":\"facebook\",\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + token + "\"}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
        return page;
    }

    private String linkedInAuthor(String channel) {
        String author = "urn:li:person:entry" + TARGETS.incrementAndGet();
        String token = "li-rw-" + Math.abs(author.hashCode());
        sandbox("POST", "/linkedin/tokens", "{\"token\":\"" + token + "\",\"author\":\"" + author
                + "\",\"scopes\":[\"w_member_social\",\"r_member_social\"]}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel, "{\"type\":\"linkedin\","
                + "\"authorUrn\":\"" + author + "\",\"accessToken\":\"" + token
                + "\",\"scopes\":[\"w_member_social\",\"r_member_social\"]}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
        return author;
    }

    private String wordPressSite(String channel) {
        String site = "entryblog" + TARGETS.incrementAndGet();
        sandbox("POST", "/wordpress/sites", "{\"site\":\"" + site + "\",\"username\":\"editor\","
                + "\"applicationPassword\":\"abcd efgh ijkl\",\"plugin\":true}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel, "{\"type\":\"wordpress\","
                + "\"siteUrl\":\"http://localhost:" + port + "/sandbox/wordpress/" + site
                + "\",\"username\":\"editor\",\"applicationPassword\":\"abcd efgh ijkl\"}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
        return site;
    }

    private Response request(String channel, String entry, long version, String action, String content,
                             String extra) {
        return send("POST", publications(), """
                {"calendarEntryId":"%s","contentVersion":%d,"channelId":"%s","action":"%s"%s%s}"""
                .formatted(entry, version, channel, action, content == null ? "" : ",\"content\":" + content,
                        extra));
    }

    private String accepted(Response r) {
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }

    private static String text(String body) {
        return "{\"title\":\"Entry\",\"body\":\"" + body + "\"}";
    }

    private JsonNode awaitStatus(String id, String status) {
        return awaitJson(publications() + "/" + id, v -> v.get("status").asText().equals(status));
    }

    private JsonNode published(String channel, String entry, String body) {
        return awaitStatus(accepted(request(channel, entry, 1, "publish", text(body), "")), "SUCCEEDED");
    }

    /** The update's first try times out with nothing changed; the read-back sees the old text and sends it again. */
    private void anUpdateThatTimedOutIsReadBackAndSentAgainOnce(String provider, String target, String channel) {
        JsonNode publish = published(channel, "entry-up", "Frist version");
        String postId = publish.get("providerRef").get("id").asText();
        fault(provider, target, "CREATE_AFTER", "EDIT", TIMES_OUT);

        String update = accepted(request(channel, "entry-up", 2, "update", text("First version"), ""));

        JsonNode view = awaitStatus(update, "SUCCEEDED");
        assertThat(view.get("targetRef").get("id").asText()).isEqualTo(postId);
        assertThat(view.get("attempts")).hasSize(2);
        assertThat(view.get("attempts").get(0).get("outcome").asText()).isEqualTo("OUTCOME_UNKNOWN");
        assertThat(view.get("reconciliations").get(0).get("result").asText()).isEqualTo("NOT_FOUND");
        JsonNode posts = sandboxTruth(provider, target);
        assertThat(posts).hasSize(1);
        assertThat(posts.get(0).get("id").asText()).isEqualTo(postId);
        assertThat(posts.get(0).get("text").asText()).contains("First version");
        assertThat(posts.get(0).get("edits")).hasSize(1);
    }

    /** The delete's first try times out with the post still there; the read-back sees it and deletes again. */
    private void aDeleteThatTimedOutIsReadBackAndSentAgainOnce(String provider, String target, String channel) {
        JsonNode publish = published(channel, "entry-del", "Soon gone");
        String postId = publish.get("providerRef").get("id").asText();
        fault(provider, target, "CREATE_AFTER", "DELETE", TIMES_OUT);

        String delete = accepted(request(channel, "entry-del", 1, "delete", null, ""));

        JsonNode view = awaitStatus(delete, "SUCCEEDED");
        assertThat(view.get("targetRef").get("id").asText()).isEqualTo(postId);
        assertThat(view.get("attempts")).hasSize(2);
        assertThat(view.get("reconciliations").get(0).get("result").asText()).isEqualTo("NOT_FOUND");
        JsonNode deleted = send("GET", "/sandbox/_truth/" + provider + "/" + target + "/deleted", null, null).json();
        assertThat(deleted).hasSize(1);
        assertThat(deleted.get(0).get("id").asText()).isEqualTo(postId);
        if (!provider.equals("wordpress")) {
            assertThat(sandboxTruth(provider, target)).isEmpty();
        }
        // after a succeeded delete there is nothing left to update
        Response refused = request(channel, "entry-del", 2, "update", text("Too late"), "");
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.json().get("code").asText()).isEqualTo("nothing_to_change");
        assertVerifiedClean();
    }

    /** The auditor's replay of the workspace's histories finds no breach. */
    private void assertVerifiedClean() {
        Response verify = send("GET", "/api/v1/workspaces/" + ws + "/audit/verify", null, null);
        assertThat(verify.status()).as(verify.toString()).isEqualTo(200);
        assertThat(verify.json()).as(verify.toString()).isEmpty();
    }

    @Test
    void facebookUpdateWithATimedOutFirstTry() {
        ws = newWorkspace("entry-fb-up");
        anUpdateThatTimedOutIsReadBackAndSentAgainOnce("facebook", facebookPage("fb"), "fb");
    }

    @Test
    void facebookDeleteWithATimedOutFirstTry() {
        ws = newWorkspace("entry-fb-del");
        aDeleteThatTimedOutIsReadBackAndSentAgainOnce("facebook", facebookPage("fb"), "fb");
    }

    @Test
    void linkedInUpdateWithATimedOutFirstTry() {
        ws = newWorkspace("entry-li-up");
        anUpdateThatTimedOutIsReadBackAndSentAgainOnce("linkedin", linkedInAuthor("li"), "li");
    }

    @Test
    void linkedInDeleteWithATimedOutFirstTry() {
        ws = newWorkspace("entry-li-del");
        aDeleteThatTimedOutIsReadBackAndSentAgainOnce("linkedin", linkedInAuthor("li"), "li");
    }

    @Test
    void wordPressUpdateWithATimedOutFirstTry() {
        ws = newWorkspace("entry-wp-up");
        anUpdateThatTimedOutIsReadBackAndSentAgainOnce("wordpress", wordPressSite("wp"), "wp");
    }

    @Test
    void wordPressDeleteWithATimedOutFirstTry() {
        ws = newWorkspace("entry-wp-del");
        aDeleteThatTimedOutIsReadBackAndSentAgainOnce("wordpress", wordPressSite("wp"), "wp");
    }

    @Test
    void anUpdateOlderThanAnAppliedOneIsSupersededWithoutACall() {
        ws = newWorkspace("entry-superseded");
        String page = facebookPage("fb");
        published("fb", "entry-old", "Version one");
        awaitStatus(accepted(request("fb", "entry-old", 3, "update", text("Version three"), "")), "SUCCEEDED");

        String older = accepted(request("fb", "entry-old", 2, "update", text("Version two"), ""));

        JsonNode view = awaitStatus(older, "SUPERSEDED");
        assertThat(view.get("attempts")).isEmpty();
        assertThat(view.get("needsDecision").asBoolean()).isFalse();
        JsonNode post = sandboxTruth("facebook", page).get(0);
        assertThat(post.get("text").asText()).isEqualTo("Version three");
        assertThat(post.get("edits")).hasSize(1);
        assertVerifiedClean();
    }

    @Test
    void anUpdateAcceptedBeforeThePublishSettledWaitsThenApplies() {
        ws = newWorkspace("entry-waits");
        String page = facebookPage("fb");
        // the create answers after 1.5 s (within the read timeout): the publish is in flight meanwhile
        fault("facebook", page, "DELAY_THEN_CREATE", "PUBLISH", ",\"delayMillis\":1500");
        String publish = accepted(request("fb", "entry-wait", 1, "publish", text("Draft wording"), ""));

        String update = accepted(request("fb", "entry-wait", 2, "update", text("Final wording"), ""));

        assertThat(awaitStatus(update, "REQUESTED").get("attempts")).isEmpty();
        JsonNode publishView = awaitStatus(publish, "SUCCEEDED");
        JsonNode view = awaitStatus(update, "SUCCEEDED");
        assertThat(view.get("attempts")).hasSize(1);
        Instant published = Instant.parse(publishView.get("attempts").get(0).get("finishedAt").asText());
        assertThat(Instant.parse(view.get("attempts").get(0).get("startedAt").asText())).isAfterOrEqualTo(published);
        assertThat(view.get("targetRef").get("id").asText())
                .isEqualTo(publishView.get("providerRef").get("id").asText());
        assertThat(sandboxTruth("facebook", page).get(0).get("text").asText()).isEqualTo("Final wording");
    }

    @Test
    void anUpdateOrDeleteOfAnEntryNeverPublishedIsRefusedAtIntake() {
        ws = newWorkspace("entry-nothing");
        facebookPage("fb");
        for (String action : new String[] {"update", "delete"}) {
            Response refused = request("fb", "entry-never", 2, action, text("No post"), "");
            assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
            assertThat(refused.json().get("code").asText()).isEqualTo("nothing_to_change");
        }
        assertThat(send("GET", publications() + "?calendarEntryId=entry-never", null, null).json().get("items"))
                .isEmpty();
    }

    @Test
    void anUpdateWaitingForAPublishThatNeverExecutesFailsWithNothingToChange() {
        ws = newWorkspace("entry-abandoned");
        String page = facebookPage("fb");
        String later = Instant.now().plusSeconds(3600).toString();
        String publish = accepted(request("fb", "entry-gone", 1, "publish", text("Planned"),
                ",\"scheduledAt\":\"" + later + "\""));
        String update = accepted(request("fb", "entry-gone", 2, "update", text("Planned, fixed"), ""));
        assertThat(awaitStatus(update, "REQUESTED").get("attempts")).isEmpty();

        Response abandon = send("POST", publications() + "/" + publish + "/decisions",
                "{\"decision\":\"abandon\",\"note\":\"the campaign was cancelled\"}");
        assertThat(abandon.status()).as(abandon.toString()).isEqualTo(200);

        JsonNode view = awaitStatus(update, "FAILED");
        assertThat(view.get("attempts")).isEmpty();
        assertThat(view.get("decisionReason").asText()).contains("nothing_to_change");
        assertThat(sandboxTruth("facebook", page)).isEmpty();
        Response refused = request("fb", "entry-gone", 3, "delete", null, "");
        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertVerifiedClean();
    }

    @Test
    void aRepeatedUpdateRequestIsTheSamePublication() {
        ws = newWorkspace("entry-replay");
        facebookPage("fb");
        published("fb", "entry-replay", "Once");
        String update = accepted(request("fb", "entry-replay", 2, "update", text("Twice"), ""));
        awaitStatus(update, "SUCCEEDED");

        Response again = request("fb", "entry-replay", 2, "update", text("Twice"), "");

        assertThat(again.status()).as(again.toString()).isEqualTo(200);
        assertThat(again.json().get("publicationId").asText()).isEqualTo(update);
    }

    @Test
    void badUpdateAndDeleteInputIsProblemJsonAndStoresNothing() {
        ws = newWorkspace("entry-bad");
        facebookPage("fb");
        published("fb", "entry-bad", "Published");
        long before = eventCount();

        Response noContent = request("fb", "entry-bad", 2, "update", null, "");
        assertThat(noContent.status()).as(noContent.toString()).isEqualTo(400);
        assertThat(noContent.json().get("code").asText()).isEqualTo("validation_failed");
        assertThat(noContent.json().get("errors").get(0).get("field").asText()).isEqualTo("content");
        Response emptyText = request("fb", "entry-bad", 2, "update", "{\"body\":\"\"}", "");
        assertThat(emptyText.status()).as(emptyText.toString()).isEqualTo(400);
        Response unknownAction = request("fb", "entry-bad", 2, "undo", text("x"), "");
        assertThat(unknownAction.status()).as(unknownAction.toString()).isEqualTo(400);
        for (Response r : new Response[] {noContent, emptyText, unknownAction}) {
            assertThat(r.contentType()).startsWith("application/problem+json");
            assertThat(r.body()).doesNotContain("Exception").doesNotContain("at io.herald");
        }
        assertThat(eventCount()).isEqualTo(before);
    }

    /**
     * Updates of one entry sent at the same moment: they run one at a time in the order accepted,
     * each older than one applied before it ends SUPERSEDED, and the post ends with the newest text.
     */
    @Test
    void concurrentUpdatesOfOneEntryRunOneAtATimeAndTheNewestWins() throws Exception {
        ws = newWorkspace("entry-race");
        String page = facebookPage("fb");
        published("fb", "entry-race", "Version 1");
        int updates = 8;
        var pool = java.util.concurrent.Executors.newFixedThreadPool(updates);
        java.util.List<java.util.concurrent.Future<String>> sent = new java.util.ArrayList<>();
        var go = new java.util.concurrent.CountDownLatch(1);
        try {
            for (int v = 2; v < 2 + updates; v++) {
                int version = v;
                sent.add(pool.submit(() -> {
                    go.await();
                    return accepted(request("fb", "entry-race", version, "update", text("Version " + version),
                            ""));
                }));
            }
            go.countDown();
            java.util.List<JsonNode> views = new java.util.ArrayList<>();
            for (var f : sent) {
                views.add(awaitJson(publications() + "/" + f.get(), v -> Set.of("SUCCEEDED", "SUPERSEDED")
                        .contains(v.get("status").asText())));
            }
            // one at a time: no attempt starts before the one before it finished
            java.util.List<JsonNode> attempts = new java.util.ArrayList<>();
            views.forEach(v -> v.get("attempts").forEach(attempts::add));
            attempts.sort(java.util.Comparator.comparing(a -> Instant.parse(a.get("startedAt").asText())));
            for (int i = 1; i < attempts.size(); i++) {
                assertThat(Instant.parse(attempts.get(i).get("startedAt").asText()))
                        .isAfterOrEqualTo(Instant.parse(attempts.get(i - 1).get("finishedAt").asText()));
            }
            JsonNode post = sandboxTruth("facebook", page).get(0);
            assertThat(post.get("text").asText()).isEqualTo("Version " + (1 + updates));
            java.util.List<Integer> editedVersions = new java.util.ArrayList<>();
            post.get("edits").forEach(e -> editedVersions.add(Integer.parseInt(e.get("text").asText()
                    .substring("Version ".length()))));
            assertThat(editedVersions).isSorted().doesNotHaveDuplicates();
            assertThat(editedVersions).hasSize((int) views.stream()
                    .filter(v -> v.get("status").asText().equals("SUCCEEDED")).count());
            assertVerifiedClean();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anUpdateAcceptedBeforeADeleteSettledFailsWithNothingToChange() {
        ws = newWorkspace("entry-after-delete");
        String page = facebookPage("fb");
        published("fb", "entry-late", "Going away");
        // the delete answers after 1.5 s (within the read timeout): it is in flight meanwhile
        fault("facebook", page, "DELAY_THEN_CREATE", "DELETE", ",\"delayMillis\":1500");
        String delete = accepted(request("fb", "entry-late", 1, "delete", null, ""));

        String update = accepted(request("fb", "entry-late", 2, "update", text("Too late"), ""));

        awaitStatus(delete, "SUCCEEDED");
        JsonNode view = awaitStatus(update, "FAILED");
        assertThat(view.get("attempts")).isEmpty();
        assertThat(view.get("decisionReason").asText()).contains("nothing_to_change").contains("deleted");
        assertThat(send("GET", "/sandbox/_truth/facebook/" + page + "/deleted", null, null).json()).hasSize(1);
        assertVerifiedClean();
    }
}
