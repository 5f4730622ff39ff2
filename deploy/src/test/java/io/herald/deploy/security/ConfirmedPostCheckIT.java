package io.herald.deploy.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An operator's {@code confirm_published} cannot aim the entry's later updates and deletes at a post
 * that is not the connection's: the post named is read back with the connection's credentials
 * (the provider sandbox, over real HTTP) and refused with 422 {@code post_not_owned} when it is
 * another Page's, author's or site user's, does not exist, or is already another entry's post. A
 * channel that cannot read records the decision as unverified, and the entry's updates and deletes
 * are 409 {@code target_unverified} until an operator confirms a reference that is read back.
 */
class ConfirmedPostCheckIT extends HeraldIntegrationTest {

    private static final AtomicInteger TARGETS = new AtomicInteger(7000);
    private static final String WP_PASSWORD = "abcd efgh ijkl";

    private String ws;

    @BeforeEach
    void workspace() {
        ws = newWorkspace("post-check");
    }

    private String publications() {
        return "/api/v1/workspaces/" + ws + "/publications";
    }

    private void fault(String provider, String target, String type) {
        sandbox("POST", "/faults", "{\"provider\":\"" + provider + "\",\"target\":\"" + target + "\",\"type\":\""
                + type + "\",\"operation\":\"PUBLISH\"}");
    }

    private String facebookPage(String channel) {
        String page = "9" + TARGETS.incrementAndGet();
        String token = "EAAB-post-check-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel,
                "{\"type\":\"facebook\",\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + token + "\"}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
        return page;
    }

    /** A LinkedIn author; {@code read}: the token was granted {@code r_member_social}. */
    private String linkedInAuthor(String channel, boolean read) {
        String author = "urn:li:person:check" + TARGETS.incrementAndGet();
        connectLinkedIn(channel, author, read);
        return author;
    }

    private void connectLinkedIn(String channel, String author, boolean read) {
        String token = "li-check-" + (read ? "rw-" : "w-") + Math.abs(author.hashCode());
        String scopes = read ? "[\"w_member_social\",\"r_member_social\"]" : "[\"w_member_social\"]";
        sandbox("POST", "/linkedin/tokens", "{\"token\":\"" + token + "\",\"author\":\"" + author
                + "\",\"scopes\":" + scopes + "}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel, "{\"type\":\"linkedin\","
                + "\"authorUrn\":\"" + author + "\",\"accessToken\":\"" + token + "\",\"scopes\":" + scopes + "}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
    }

    private String wordPressSite(String channel) {
        String site = "checkblog" + TARGETS.incrementAndGet();
        sandbox("POST", "/wordpress/sites", "{\"site\":\"" + site + "\",\"username\":\"editor\","
                + "\"applicationPassword\":\"" + WP_PASSWORD + "\",\"plugin\":true}");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel, "{\"type\":\"wordpress\","
                + "\"siteUrl\":\"http://localhost:" + port + "/sandbox/wordpress/" + site
                + "\",\"username\":\"editor\",\"applicationPassword\":\"" + WP_PASSWORD + "\"}");
        assertThat(put.status()).as(put.toString()).isIn(200, 201);
        return site;
    }

    /** A post placed at the target directly (as if posted by hand): its id. */
    private String seeded(String provider, String target, String text) {
        Response r = send("POST", "/sandbox/_admin/" + provider + "/" + target + "/posts",
                "{\"text\":\"" + text + "\"}");
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        return r.json().get("id").asText();
    }

    /** A post another user of the site wrote (an editor may post as another author). */
    private String byAnotherSiteUser(String site) {
        String basic = Base64.getEncoder().encodeToString(("editor:" + WP_PASSWORD).getBytes(StandardCharsets.UTF_8));
        Response r = sendAs(null, "POST", "/sandbox/wordpress/" + site + "/wp-json/wp/v2/posts",
                "{\"title\":\"Theirs\",\"content\":\"Another author's post\",\"status\":\"publish\",\"author\":2}",
                "application/json", Map.of("Authorization", "Basic " + basic));
        assertThat(r.status()).as(r.toString()).isEqualTo(201);
        return r.json().get("id").asText();
    }

    private String publish(String channel, String entry, String body) {
        Response r = send("POST", publications(), """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"%s","action":"publish",
                 "content":{"title":"Entry","body":"%s"}}""".formatted(entry, channel, body));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        return r.json().get("publicationId").asText();
    }

    private Response change(String channel, String entry, String action) {
        return change(channel, entry, action, 2);
    }

    private Response change(String channel, String entry, String action, int version) {
        String content = action.equals("delete") ? "" : ",\"content\":{\"title\":\"Entry\",\"body\":\"Changed\"}";
        return send("POST", publications(), """
                {"calendarEntryId":"%s","contentVersion":%d,"channelId":"%s","action":"%s"%s}"""
                .formatted(entry, version, channel, action, content));
    }

    /** A publish that never made its post: refused for good (Facebook), or unknown and read back (others). */
    private String undecided(String provider, String target, String channel, String entry) {
        fault(provider, target, provider.equals("facebook") ? "VALIDATION_ERROR" : "RESET_AFTER_READ");
        String id = publish(channel, entry, "Needs an operator");
        awaitJson(publications() + "/" + id,
                v -> Set.of("FAILED", "NOT_EXECUTED", "OUTCOME_UNKNOWN").contains(v.path("status").asText()));
        return id;
    }

    private Response confirm(String publication, String postId) {
        return send("POST", publications() + "/" + publication + "/decisions",
                "{\"decision\":\"confirm_published\",\"providerRef\":{\"id\":\"" + postId + "\"},"
                        + "\"note\":\"found it by hand\"}");
    }

    private static void assertNotOwned(Response r, String... found) {
        assertThat(r.status()).as(r.toString()).isEqualTo(422);
        assertThat(r.json().get("code").asText()).isEqualTo("post_not_owned");
        assertThat(r.json().get("detail").asText()).contains(found);
    }

    private static JsonNode last(JsonNode view) {
        JsonNode all = view.path("reconciliations");
        return all.size() == 0 ? MissingNode.getInstance() : all.get(all.size() - 1);
    }

    private JsonNode confirmedVerified(String publication, String postId, boolean verified) {
        Response r = confirm(publication, postId);
        assertThat(r.status()).as(r.toString()).isEqualTo(200);
        JsonNode view = awaitJson(publications() + "/" + publication, v -> v.path("status").asText()
                .equals("SUCCEEDED") && postId.equals(v.path("providerRef").path("id").asText())
                && last(v).path("verified").isBoolean() && last(v).path("verified").asBoolean() == verified);
        assertThat(last(view).get("source").asText()).isEqualTo("OPERATOR");
        return view;
    }

    @Test
    void facebookRefusesAnotherPagesPostAMissingOneAndAnotherEntrysAndAcceptsItsOwn() {
        String page = facebookPage("fb");
        String otherPage = "9" + TARGETS.incrementAndGet();
        String theirs = seeded("facebook", otherPage, "Another Page's post");
        String id = undecided("facebook", page, "fb", "entry-1");

        assertNotOwned(confirm(id, theirs), "Page " + otherPage);
        assertNotOwned(confirm(id, page + "_424242"), "does not exist");
        String anotherEntrys = awaitJson(publications() + "/" + publish("fb", "entry-2", "Second entry"),
                v -> v.path("status").asText().equals("SUCCEEDED")).get("providerRef").get("id").asText();
        assertNotOwned(confirm(id, anotherEntrys), "already the post of publication");
        // nothing was recorded by the refusals
        assertThat(lastReconciliationOrNull(id)).isNull();

        String own = seeded("facebook", page, "Posted by hand");
        confirmedVerified(id, own, true);
        // the entry's update now reaches its own post, and no other
        Response update = change("fb", "entry-1", "update");
        assertThat(update.status()).as(update.toString()).isEqualTo(202);
        awaitJson(publications() + "/" + update.json().get("publicationId").asText(),
                v -> v.path("status").asText().equals("SUCCEEDED"));
        JsonNode posts = sandboxTruth("facebook", page);
        assertThat(posts.findValues("id").stream().map(JsonNode::asText)).contains(own, anotherEntrys);
        for (JsonNode post : posts) {
            assertThat(post.get("text").asText().contains("Changed")).as(post.toString())
                    .isEqualTo(post.get("id").asText().equals(own));
        }
        assertThat(sandboxTruth("facebook", otherPage).get(0).get("text").asText()).isEqualTo("Another Page's post");
    }

    /** Silence says nothing about whose a post is: the decision is refused for now, and nothing is recorded. */
    @Test
    void aProviderThatDoesNotAnswerTheReadIs503AndRecordsNothing() {
        String page = facebookPage("fb-silent");
        String own = seeded("facebook", page, "Posted by hand");
        String id = undecided("facebook", page, "fb-silent", "entry-1");
        sandbox("POST", "/faults", "{\"provider\":\"facebook\",\"target\":\"" + page + "\",\"type\":\"CREATE_AFTER\","
                + "\"operation\":\"READ\",\"delayMillis\":25000}");

        Response silent = confirm(id, own);
        assertThat(silent.status()).as(silent.toString()).isEqualTo(503);
        assertThat(silent.json().get("code").asText()).isEqualTo("unavailable");
        assertThat(silent.json().get("detail").asText()).contains("nothing was recorded");
        assertThat(lastReconciliationOrNull(id)).isNull();

        confirmedVerified(id, own, true);
    }

    private JsonNode lastReconciliationOrNull(String publication) {
        JsonNode all = send("GET", publications() + "/" + publication, null, null).json().get("reconciliations");
        for (JsonNode r : all) {
            if (r.path("source").asText().equals("OPERATOR")) {
                return r;
            }
        }
        return null;
    }

    @Test
    void linkedInRefusesAnotherAuthorsPostAndAcceptsItsOwn() {
        String author = linkedInAuthor("li", true);
        String otherAuthor = linkedInAuthor("li-other", true);
        String theirs = seeded("linkedin", otherAuthor, "Another author's post");
        String id = undecided("linkedin", author, "li", "entry-1");

        assertNotOwned(confirm(id, theirs), "not the author's post");
        assertNotOwned(confirm(id, "urn:li:share:7100000000999999999"), "does not exist");
        assertNotOwned(confirm(id, "1234"), "names no LinkedIn post");

        String own = seeded("linkedin", author, "Posted by hand");
        confirmedVerified(id, own, true);
    }

    @Test
    void wordPressRefusesAnotherSiteUsersPostAndAcceptsItsOwn() {
        String site = wordPressSite("wp");
        String theirs = byAnotherSiteUser(site);
        String id = undecided("wordpress", site, "wp", "entry-1");

        assertNotOwned(confirm(id, theirs), "written by user 2");
        assertNotOwned(confirm(id, "987654"), "does not exist");

        String own = seeded("wordpress", site, "Posted by hand");
        confirmedVerified(id, own, true);
        // the plugin's delete on trashing now reaches the entry's own post
        Response delete = change("wp", "entry-1", "delete");
        assertThat(delete.status()).as(delete.toString()).isEqualTo(202);
        awaitJson(publications() + "/" + delete.json().get("publicationId").asText(),
                v -> v.path("status").asText().equals("SUCCEEDED"));
        JsonNode deleted = send("GET", "/sandbox/_truth/wordpress/" + site + "/deleted", null, null).json();
        assertThat(deleted.findValues("id").stream().map(JsonNode::asText)).containsExactly(own);
    }

    @Test
    void aChannelThatCannotReadRecordsTheDecisionUnverifiedAndHoldsUpdatesAndDeletesUntilConfirmedAgain()
            throws InterruptedException {
        String author = linkedInAuthor("li-w", false);
        String own = seeded("linkedin", author, "Posted by hand");
        String id = undecided("linkedin", author, "li-w", "entry-1");
        // accepted while the publish waited for an operator: it waits in the entry's line
        Response early = change("li-w", "entry-1", "update", 2);
        assertThat(early.status()).as(early.toString()).isEqualTo(202);
        String earlyUpdate = early.json().get("publicationId").asText();

        JsonNode view = confirmedVerified(id, own, false);
        assertThat(view.get("providerRef").get("id").asText()).isEqualTo(own);
        for (String action : new String[] {"update", "delete"}) {
            Response refused = change("li-w", "entry-1", action, 3);
            assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
            assertThat(refused.json().get("code").asText()).isEqualTo("target_unverified");
        }
        // the channel still cannot read: confirming again is refused, and nothing changes
        Response again = confirm(id, own);
        assertThat(again.status()).as(again.toString()).isEqualTo(409);
        assertThat(again.json().get("code").asText()).isEqualTo("decision_not_allowed");
        Thread.sleep(3000);
        JsonNode waiting = send("GET", publications() + "/" + earlyUpdate, null, null).json();
        assertThat(waiting.get("status").asText()).isEqualTo("REQUESTED");
        assertThat(waiting.get("attempts")).isEmpty();
        assertThat(sandboxTruth("linkedin", author).get(0).get("text").asText()).isEqualTo("Posted by hand");

        // with a token that can read, the same post is read back as the author's, and the entry moves on
        connectLinkedIn("li-w", author, true);
        confirmedVerified(id, own, true);
        awaitJson(publications() + "/" + earlyUpdate, v -> v.path("status").asText().equals("SUCCEEDED"));
        assertThat(sandboxTruth("linkedin", author).get(0).get("text").asText()).contains("Changed");
        Response delete = change("li-w", "entry-1", "delete", 3);
        assertThat(delete.status()).as(delete.toString()).isEqualTo(202);
    }

    /** A publish with a first comment whose post create was lost (the connection reset after the request was read). */
    private String undecidedWithComment(String author, String channel, String entry) {
        fault("linkedin", author, "RESET_AFTER_READ");
        Response r = send("POST", publications(), """
                {"calendarEntryId":"%s","contentVersion":1,"channelId":"%s","action":"publish",
                 "content":{"title":"Entry","body":"With a comment","firstComment":"Details below"}}"""
                .formatted(entry, channel));
        assertThat(r.status()).as(r.toString()).isEqualTo(202);
        String id = r.json().get("publicationId").asText();
        awaitJson(publications() + "/" + id, v -> v.path("status").asText().equals("OUTCOME_UNKNOWN")
                && v.path("needsDecision").asBoolean());
        return id;
    }

    private static String steps(JsonNode view) {
        StringBuilder steps = new StringBuilder();
        view.get("steps").forEach(s -> steps.append(s.get("step").asText()).append(':')
                .append(s.get("status").asText()).append(' '));
        return steps.toString().trim();
    }

    /**
     * Confirmed on the operator's word alone, the post gets no first comment until a confirmation
     * Herald can read, which this connection never gives: the comment waits in the decision queue,
     * where re-attempting it is refused and abandoning it skips it while the post stays.
     */
    @Test
    void aCommentWaitingOnAnUnverifiedPostIsInTheDecisionQueueAndAnOperatorAbandonsIt() {
        String author = linkedInAuthor("li-c", false);
        String own = seeded("linkedin", author, "Posted by hand");
        String id = undecidedWithComment(author, "li-c", "entry-c");

        confirmedVerified(id, own, false);
        JsonNode queue = awaitJson("/api/v1/workspaces/" + ws + "/decisions", q -> q.path("items").size() == 1
                && "first_comment".equals(q.path("items").get(0).path("decisionStep").asText()));
        JsonNode waiting = queue.get("items").get(0);
        assertThat(waiting.get("publicationId").asText()).isEqualTo(id);
        assertThat(waiting.get("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(waiting.get("decisionReason").asText()).contains("confirmed without being read back",
                "waits for a confirmation Herald can read", "abandon the first comment");
        assertThat(steps(waiting)).isEqualTo("create_post:SUCCEEDED first_comment:PENDING");

        Response reattempt = send("POST", publications() + "/" + id + "/decisions", "{\"decision\":\"reattempt\"}");
        assertThat(reattempt.status()).as(reattempt.toString()).isEqualTo(409);
        assertThat(reattempt.json().get("code").asText()).isEqualTo("decision_not_allowed");
        Response abandon = send("POST", publications() + "/" + id + "/decisions",
                "{\"decision\":\"abandon\",\"note\":\"this channel cannot read\"}");
        assertThat(abandon.status()).as(abandon.toString()).isEqualTo(200);

        JsonNode view = awaitJson(publications() + "/" + id, v -> !v.path("needsDecision").asBoolean());
        assertThat(view.get("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(steps(view)).isEqualTo("create_post:SUCCEEDED first_comment:SKIPPED");
        assertThat(send("GET", "/api/v1/workspaces/" + ws + "/decisions", null, null).json().get("items")).isEmpty();
        assertThat(sandboxTruth("linkedin", author)).hasSize(1);
    }

    /** Confirmed again once the connection can read, the post is read back as the author's and the comment is posted. */
    @Test
    void aCommentWaitingOnAnUnverifiedPostIsPostedOnceAConfirmationIsReadBack() {
        String author = linkedInAuthor("li-r", false);
        String own = seeded("linkedin", author, "Posted by hand");
        String id = undecidedWithComment(author, "li-r", "entry-r");
        confirmedVerified(id, own, false);
        awaitJson(publications() + "/" + id, v -> "first_comment".equals(v.path("decisionStep").asText()));

        connectLinkedIn("li-r", author, true);
        confirmedVerified(id, own, true);
        JsonNode view = awaitJson(publications() + "/" + id,
                v -> steps(v).equals("create_post:SUCCEEDED first_comment:SUCCEEDED"));
        assertThat(view.get("needsDecision").asBoolean()).isFalse();
        assertThat(send("GET", "/api/v1/workspaces/" + ws + "/decisions", null, null).json().get("items")).isEmpty();
    }
}
