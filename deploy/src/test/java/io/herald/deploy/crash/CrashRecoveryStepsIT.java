package io.herald.deploy.crash;

import static io.herald.deploy.media.MediaImages.contentWithImages;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.SandboxLoopback;
import io.herald.deploy.media.MediaImages;
import io.herald.deploy.process.HeraldProcess;
import io.herald.deploy.process.StoredPublications;
import io.herald.testsupport.TestDatabase;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Herald runs as its own process and is killed with SIGKILL once, while every kind of step is in
 * flight at the provider, each publication at its own target: an upload, a post whose image was
 * uploaded, a first comment (on a Page that can be read back, and on a LinkedIn member that
 * cannot), an update and a delete whose effect landed before the kill, and an update and a delete
 * whose effect had not. The sandbox (in this JVM) survives and keeps the ground truth. Afterwards:
 * every interrupted step was an unknown outcome; the upload was made again and the post uses only
 * recorded uploads; posts and comments exist once; updates and deletes were sent again at most
 * once and left the post as wanted; nothing was retried blindly.
 */
class CrashRecoveryStepsIT extends HeraldIntegrationTest {

    private static final String CRASH_SYSTEM_KEY = "hs.crash-steps-system-key-abcdefghijklmnopqrstuvwxyz01";
    private static final Set<String> SETTLED = Set.of("SUCCEEDED", "NOT_EXECUTED", "FAILED", "ABANDONED");
    /** How long every view must stay as it is to count as settled. */
    private static final Duration SETTLED_FOR = Duration.ofSeconds(5);
    /** Below the attempt timeout, far above any answer the kill lets through. */
    private static final String READ_TIMEOUT = "30s";
    /** When a faulted call answers: long after the read timeout, so only the kill ends it. */
    private static final long ANSWER_LATE = 120_000;
    /** When a held call has its effect: after the test (the hold drops the exchange at 10 minutes). */
    private static final long EFFECT_AFTER_THE_TEST = 590_000;

    private final String run = "9" + System.nanoTime() % 1_000_000;
    /** Everything after the kill is checked, and every breach reported, before the test fails. */
    private final SoftAssertions softly = new SoftAssertions();
    private TestDatabase database;
    private HeraldProcess herald;
    private String key;
    private String ws;
    private int seed;
    /** The targets, one a publication: Facebook Pages and a LinkedIn member. */
    private String uploadPage;
    private String createPage;
    private String commentPage;
    private String commentAuthor;
    private String updateLandedPage;
    private String updateLostPage;
    private String deleteLandedPage;
    private String deleteLostPage;

    @Test
    void killedWhileEachKindOfStepIsInFlightHeraldMakesNothingTwiceAndLosesNothing() throws Exception {
        database = TestDatabase.shared().freshSibling();
        Path log = Path.of("target", "crash-steps-herald.log");
        Files.deleteIfExists(log);
        String sandbox = "http://localhost:" + SandboxLoopback.port() + "/sandbox";
        herald = new HeraldProcess(List.of(
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                "--herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
                "--herald.security.system-key=" + CRASH_SYSTEM_KEY,
                "--herald.security.rate-limit.limit-for-period=100000",
                "--herald.channels.facebook.graph-base-url=" + sandbox + "/facebook/v25.0",
                "--herald.channels.linkedin.api-base-url=" + sandbox + "/linkedin",
                "--herald.channels.facebook.read-timeout=" + READ_TIMEOUT,
                "--herald.channels.linkedin.read-timeout=" + READ_TIMEOUT,
                "--herald.publishing.attempt-timeout=35s",
                "--herald.reconciliation.settle-delay=2s",
                "--herald.reconciliation.retry-schedule=2s,4s,8s"), log);
        try {
            herald.start();
            ws = "crashsteps" + run;
            herald.call(CRASH_SYSTEM_KEY, "POST", "/api/v1/admin/workspaces",
                    "{\"workspaceId\":\"" + ws + "\",\"name\":\"crash test of the steps\"}");
            key = herald.call(CRASH_SYSTEM_KEY, "POST", "/api/v1/workspaces/" + ws + "/keys",
                    "{\"roles\":[\"publisher\",\"operator\",\"auditor\",\"admin\"],\"label\":\"crash\"}")
                    .get("key").asText();
            crashAndRecover();
        } finally {
            herald.stop();
        }
    }

    private void crashAndRecover() throws Exception {
        uploadPage = facebookPage("fb-upload");
        createPage = facebookPage("fb-create");
        commentPage = facebookPage("fb-comment");
        commentAuthor = linkedInMemberWithoutReadScope("li-comment");
        updateLandedPage = facebookPage("fb-update-landed");
        updateLostPage = facebookPage("fb-update-lost");
        deleteLandedPage = facebookPage("fb-delete-landed");
        deleteLostPage = facebookPage("fb-delete-lost");
        for (String channel : List.of("fb-update-landed", "fb-update-lost", "fb-delete-landed", "fb-delete-lost")) {
            awaitView(publish(channel, "entry", "{\"body\":\"Before the crash\"}"),
                    v -> v.path("status").asText().equals("SUCCEEDED"));
        }
        List<String> uploadImages = List.of(image(), image());
        String createImage = image();
        String commentImage = image();

        // effect now, answer after the kill: the upload, the post, both comments, one update, one delete
        fault("facebook", uploadPage, "DELAY_THEN_CREATE", "UPLOAD", ANSWER_LATE);
        fault("facebook", createPage, "DELAY_THEN_CREATE", "PUBLISH", ANSWER_LATE);
        fault("facebook", commentPage, "DELAY_THEN_CREATE", "COMMENT", ANSWER_LATE);
        fault("linkedin", commentAuthor, "DELAY_THEN_CREATE", "COMMENT", ANSWER_LATE);
        fault("facebook", updateLandedPage, "DELAY_THEN_CREATE", "EDIT", ANSWER_LATE);
        fault("facebook", deleteLandedPage, "DELAY_THEN_CREATE", "DELETE", ANSWER_LATE);
        // no answer and no effect before the read-back: the update and the delete that must be sent again
        fault("facebook", updateLostPage, "CREATE_AFTER", "EDIT", EFFECT_AFTER_THE_TEST);
        fault("facebook", deleteLostPage, "CREATE_AFTER", "DELETE", EFFECT_AFTER_THE_TEST);

        Map<String, String> ids = new LinkedHashMap<>();
        ids.put("upload", publish("fb-upload", "upload",
                contentWithImages("Two photos, one upload cut off", uploadImages, null)));
        ids.put("create", publish("fb-create", "create",
                contentWithImages("A post cut off after its upload", List.of(createImage), null)));
        ids.put("comment", publish("fb-comment", "comment",
                contentWithImages("A post whose comment was cut off", List.of(commentImage), "The comment, once")));
        ids.put("comment-unreadable", publish("li-comment", "comment",
                contentWithImages("A LinkedIn post, comment cut off", List.of(), "Only once here too")));
        ids.put("update-landed", change("fb-update-landed", "update", "After the crash"));
        ids.put("update-lost", change("fb-update-lost", "update", "After the crash"));
        ids.put("delete-landed", change("fb-delete-landed", "delete", null));
        ids.put("delete-lost", change("fb-delete-lost", "delete", null));

        Map<String, BooleanSupplier> inFlight = new LinkedHashMap<>();
        inFlight.put("upload", () -> media("facebook", uploadPage).size() == 1);
        inFlight.put("create", () -> sandboxTruth("facebook", createPage).size() == 1);
        inFlight.put("comment", () -> commentsAt("facebook", commentPage) == 1);
        inFlight.put("comment-unreadable", () -> commentsAt("linkedin", commentAuthor) == 1);
        inFlight.put("update-landed", () -> sandboxTruth("facebook", updateLandedPage).get(0).has("edits"));
        inFlight.put("update-lost", () -> lastAttemptInFlight(ids.get("update-lost")));
        inFlight.put("delete-landed", () -> deleted("facebook", deleteLandedPage).size() == 1);
        inFlight.put("delete-lost", () -> lastAttemptInFlight(ids.get("delete-lost")));
        awaitAll(inFlight);
        // the two calls seen only from Herald's side: give their requests time to reach the sandbox
        Thread.sleep(1000);
        herald.kill();
        System.out.println("[crash-steps] SIGKILL with every step in flight");
        herald.start();

        Map<String, JsonNode> views = awaitSettled(ids);
        StoredPublications replay;
        try (Connection c = database.connect()) {
            replay = StoredPublications.read(c, json, null);
        }

        int orphans = assertUploadMadeAgain(views.get("upload"));
        assertPostReadBack(views.get("create"));
        assertCommentsOnce(views.get("comment"), views.get("comment-unreadable"));
        assertChangesAsWanted(views);
        assertCountsAtTheSandbox(views, replay, orphans);
        softly.assertAll();
    }

    /**
     * The upload: made again after the kill, and the post attaches only the recorded uploads.
     *
     * @return how many uploads no post uses
     */
    private int assertUploadMadeAgain(JsonNode upload) {
        softly.assertThat(stepNames(upload)).as("upload: steps").containsExactly("upload_media:SUCCEEDED",
                "upload_media:SUCCEEDED", "create_post:SUCCEEDED");
        assertInterrupted(upload, 0);
        softly.assertThat(upload.path("steps").path(0).path("attempts").asInt())
                .as("upload: the cut-off upload, made again").isEqualTo(2);
        JsonNode uploadPost = single(sandboxTruth("facebook", uploadPage), "posts at " + uploadPage);
        softly.assertThat(attachedIds(uploadPost)).as("upload: the post attaches the recorded uploads, in order")
                .containsExactly(providerIdOf(upload, 0), providerIdOf(upload, 1));
        JsonNode uploaded = media("facebook", uploadPage);
        softly.assertThat(uploaded).as("upload: photos at the sandbox, one cut off and two recorded").hasSize(3);
        List<String> orphans = new ArrayList<>();
        uploaded.forEach(m -> {
            if (!attachedIds(uploadPost).contains(m.path("id").asText())) {
                orphans.add(m.path("id").asText());
            }
        });
        return orphans.size();
    }

    /** The post cut off after its upload: read back, once, with the upload of before the kill. */
    private void assertPostReadBack(JsonNode create) {
        softly.assertThat(stepNames(create)).as("create: steps").containsExactly("upload_media:SUCCEEDED",
                "create_post:SUCCEEDED");
        assertInterrupted(create, 1);
        assertReconciled(create, "create_post", "FOUND");
        softly.assertThat(create.path("steps").path(0).path("attempts").asInt()).as("create: the upload is reused")
                .isEqualTo(1);
        JsonNode createPost = single(sandboxTruth("facebook", createPage), "posts at " + createPage);
        softly.assertThat(media("facebook", createPage)).as("create: no upload after the kill").hasSize(1);
        softly.assertThat(attachedIds(createPost)).as("create: the post attaches the recorded upload")
                .containsExactly(providerIdOf(create, 0));
    }

    /**
     * The comment on a Page: read back, one comment. The comment where the credentials cannot read
     * comments: the operator decides, nothing is sent again.
     */
    private void assertCommentsOnce(JsonNode comment, JsonNode unreadable) {
        softly.assertThat(stepNames(comment)).as("comment: steps").containsExactly("upload_media:SUCCEEDED",
                "create_post:SUCCEEDED", "first_comment:SUCCEEDED");
        assertInterrupted(comment, 2);
        assertReconciled(comment, "first_comment", "FOUND");
        softly.assertThat(comment.path("needsDecision").asBoolean()).as("comment: needs a decision").isFalse();
        JsonNode commentPost = single(sandboxTruth("facebook", commentPage), "posts at " + commentPage);
        softly.assertThat(commentPost.path("comments")).as("comment: comments at the sandbox").hasSize(1);
        softly.assertThat(commentPost.path("comments").path(0).path("text").asText()).as("comment: its text")
                .isEqualTo("The comment, once");
        softly.assertThat(media("facebook", commentPage)).as("comment: uploads").hasSize(1);

        assertInterrupted(unreadable, 1);
        softly.assertThat(unreadable.path("status").asText()).as("comment-unreadable: the post stands")
                .isEqualTo("SUCCEEDED");
        softly.assertThat(unreadable.path("needsDecision").asBoolean()).as("comment-unreadable: needs a decision")
                .isTrue();
        softly.assertThat(unreadable.path("decisionStep").asText()).as("comment-unreadable: decision step")
                .isEqualTo("first_comment");
        softly.assertThat(unreadable.path("steps").path(1).path("attempts").asInt())
                .as("comment-unreadable: comment attempts").isEqualTo(1);
        JsonNode linkedInPost = single(sandboxTruth("linkedin", commentAuthor), "posts of " + commentAuthor);
        softly.assertThat(linkedInPost.path("comments")).as("comment-unreadable: comments at the sandbox").hasSize(1);
    }

    /** Updates and deletes: read back; sent again only where the read showed the change missing. */
    private void assertChangesAsWanted(Map<String, JsonNode> views) {
        // the update that landed: read back as wanted, not sent again
        JsonNode updateLanded = views.get("update-landed");
        assertChange(updateLanded, "FOUND", 1);
        JsonNode landedPost = single(sandboxTruth("facebook", updateLandedPage), "posts at " + updateLandedPage);
        softly.assertThat(landedPost.path("text").asText()).as("update-landed: text").isEqualTo("After the crash");
        softly.assertThat(landedPost.path("edits")).as("update-landed: edits at the sandbox").hasSize(1);

        // the update that had not landed: read back unchanged, sent again once
        JsonNode updateLost = views.get("update-lost");
        assertChange(updateLost, "NOT_FOUND", 2);
        JsonNode lostPost = single(sandboxTruth("facebook", updateLostPage), "posts at " + updateLostPage);
        softly.assertThat(lostPost.path("text").asText()).as("update-lost: text").isEqualTo("After the crash");
        softly.assertThat(lostPost.path("edits")).as("update-lost: edits at the sandbox").hasSize(1);

        // the deletes: gone at the sandbox, the one that had not landed sent again once
        assertChange(views.get("delete-landed"), "FOUND", 1);
        assertChange(views.get("delete-lost"), "NOT_FOUND", 2);
        for (String page : List.of(deleteLandedPage, deleteLostPage)) {
            softly.assertThat(sandboxTruth("facebook", page)).as("posts at " + page).isEmpty();
            softly.assertThat(deleted("facebook", page)).as("deleted at " + page).hasSize(1);
        }
    }

    /** The same, counted from what the sandbox holds, and the event store's replay step by step. */
    private void assertCountsAtTheSandbox(Map<String, JsonNode> views, StoredPublications replay, int orphans) {
        List<String> createdAt = List.of(uploadPage, createPage, commentPage);
        int posts = 0;
        int duplicates = 0;
        for (String page : createdAt) {
            posts += sandboxTruth("facebook", page).size();
            duplicates += sandboxTruth("facebook", page).size() > 1 ? 1 : 0;
        }
        posts += sandboxTruth("linkedin", commentAuthor).size();
        duplicates += sandboxTruth("linkedin", commentAuthor).size() > 1 ? 1 : 0;
        int comments = commentsAt("facebook", commentPage) + commentsAt("linkedin", commentAuthor);
        duplicates += (commentsAt("facebook", commentPage) > 1 ? 1 : 0)
                + (commentsAt("linkedin", commentAuthor) > 1 ? 1 : 0);
        int uploads = media("facebook", uploadPage).size() + media("facebook", createPage).size()
                + media("facebook", commentPage).size();
        int edits = editsAt(updateLandedPage) + editsAt(updateLostPage);
        duplicates += (editsAt(updateLandedPage) > 1 ? 1 : 0) + (editsAt(updateLostPage) > 1 ? 1 : 0);
        int deletes = deleted("facebook", deleteLandedPage).size() + deleted("facebook", deleteLostPage).size();
        duplicates += (deleted("facebook", deleteLandedPage).size() > 1 ? 1 : 0)
                + (deleted("facebook", deleteLostPage).size() > 1 ? 1 : 0);
        int lost = 0;
        for (String page : createdAt) {
            lost += sandboxTruth("facebook", page).isEmpty() ? 1 : 0;
        }
        lost += sandboxTruth("linkedin", commentAuthor).isEmpty() ? 1 : 0;
        lost += (commentsAt("facebook", commentPage) == 0 ? 1 : 0)
                + (commentsAt("linkedin", commentAuthor) == 0 ? 1 : 0);
        for (String page : List.of(updateLandedPage, updateLostPage)) {
            lost += sandboxTruth("facebook", page).path(0).path("text").asText().equals("After the crash") ? 0 : 1;
        }
        for (String page : List.of(deleteLandedPage, deleteLostPage)) {
            lost += sandboxTruth("facebook", page).isEmpty() ? 0 : 1;
        }
        long decisions = views.values().stream().filter(v -> v.path("needsDecision").asBoolean()).count();
        System.out.printf("[crash-steps] kills=1 publications=%d posts=%d comments=%d uploads=%d orphan_uploads=%d "
                        + "edits=%d deletes=%d duplicates=%d lost=%d interrupted=%d interrupted_by_step=%s "
                        + "unknown_reconciled=%d awaiting_decision=%d interrupted_uploads=%d uploaded_again=%d "
                        + "blind_retries=%d timers_fired_twice_with_effect=%d%n",
                views.size(), posts, comments, uploads, orphans, edits, deletes, duplicates, lost,
                replay.interrupted, new TreeMap<>(replay.interruptedBySteps), replay.interruptedReconciled,
                decisions, replay.interruptedUploads, replay.interruptedUploadsRepeated, replay.blindRetries,
                replay.firedTwiceWithEffect());
        softly.assertThat(views).as("publications").hasSize(8);
        softly.assertThat(posts).as("posts").isEqualTo(4);
        softly.assertThat(comments).as("comments").isEqualTo(2);
        softly.assertThat(uploads).as("4 images, one of them uploaded again").isEqualTo(5);
        softly.assertThat(orphans).as("uploads no post uses").isEqualTo(1);
        softly.assertThat(edits).as("edits").isEqualTo(2);
        softly.assertThat(deletes).as("deletes").isEqualTo(2);
        softly.assertThat(duplicates).as("duplicates").isZero();
        softly.assertThat(lost).as("lost").isZero();
        softly.assertThat(replay.interruptedBySteps).as("interrupted by step")
                .containsExactlyInAnyOrderEntriesOf(Map.of("post", 5, "first_comment", 2));
        softly.assertThat(replay.interruptedReconciled).as("read back: all but the comment LinkedIn cannot read")
                .isEqualTo(6);
        softly.assertThat(decisions).as("awaiting a decision").isEqualTo(1);
        softly.assertThat(replay.interruptedUploads).as("interrupted uploads").isEqualTo(1);
        softly.assertThat(replay.interruptedUploadsRepeated).as("uploaded again").isEqualTo(1);
        softly.assertThat(replay.blindRetries).as("blind retries").isZero();
        softly.assertThat(replay.firedTwiceWithEffect()).as("timers fired twice with effect").isZero();
    }

    private String facebookPage(String channel) throws Exception {
        String page = run + (++seed);
        String token = "EAAB-crash-steps-" + page;
        sandbox("POST", "/facebook/tokens", "{\"token\":\"" + token + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        herald.call(key, "PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel,
                "{\"type\":\"facebook\",\"pageId\":\"" + page + "\",\"pageAccessToken\":\"" + token + "\"}");
        return page;
    }

    /** A member whose token may post and comment but not read: a comment's outcome cannot be read back. */
    private String linkedInMemberWithoutReadScope(String channel) throws Exception {
        String author = "urn:li:person:crash" + run + (++seed);
        String token = "li-crash-steps-" + run + seed;
        sandbox("POST", "/linkedin/tokens", "{\"token\":\"" + token + "\",\"author\":\"" + author
                + "\",\"scopes\":[\"w_member_social\"]}");
        herald.call(key, "PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel, "{\"type\":\"linkedin\","
                + "\"authorUrn\":\"" + author + "\",\"accessToken\":\"" + token
                + "\",\"scopes\":[\"w_member_social\"]}");
        return author;
    }

    private void fault(String provider, String target, String type, String operation, long delayMillis) {
        sandbox("POST", "/faults", "{\"provider\":\"" + provider + "\",\"target\":\"" + target + "\",\"type\":\""
                + type + "\",\"operation\":\"" + operation + "\",\"delayMillis\":" + delayMillis + "}");
    }

    /** A new image, stored at Herald: its media id. */
    private String image() throws Exception {
        byte[] png = MediaImages.image("png", 8, 6, Integer.parseInt(run) + (++seed));
        HttpResponse<String> created = herald.send(key, "POST", "/api/v1/workspaces/" + ws + "/media", png,
                "image/png");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return json.readTree(created.body()).get("mediaId").asText();
    }

    private String publish(String channel, String entry, String content) throws Exception {
        return request("{\"calendarEntryId\":\"" + entry + "\",\"contentVersion\":1,\"channelId\":\"" + channel
                + "\",\"action\":\"publish\",\"content\":" + content + "}");
    }

    /** An update to the given text, or a delete (no text), of the channel's entry's post. */
    private String change(String channel, String action, String body) throws Exception {
        return request("{\"calendarEntryId\":\"entry\",\"contentVersion\":2,\"channelId\":\"" + channel
                + "\",\"action\":\"" + action + "\"" + (body == null ? "" : ",\"content\":{\"body\":\"" + body + "\"}")
                + "}");
    }

    private String request(String body) throws Exception {
        return herald.call(key, "POST", "/api/v1/workspaces/" + ws + "/publications", body)
                .get("publicationId").asText();
    }

    /** The publication's view; an empty object while the view has not caught up with the request. */
    private JsonNode view(String id) {
        try {
            HttpResponse<String> r = herald.send(key, "GET", "/api/v1/workspaces/" + ws + "/publications/" + id, null);
            if (r.statusCode() == 404) {
                return json.createObjectNode();
            }
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            return json.readTree(r.body());
        } catch (java.io.IOException e) {
            throw new IllegalStateException("no view of " + id, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private JsonNode awaitView(String id, java.util.function.Predicate<JsonNode> until) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = view(id);
            if (until.test(last)) {
                return last;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("publication " + id + " did not get there: " + last);
    }

    private boolean lastAttemptInFlight(String id) {
        JsonNode attempts = view(id).path("attempts");
        return !attempts.isEmpty() && attempts.get(attempts.size() - 1).get("outcome").asText().equals("IN_FLIGHT");
    }

    /** Waits until every call is at the sandbox: all of them must be in flight before the read timeout. */
    private static void awaitAll(Map<String, BooleanSupplier> inFlight) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + Duration.ofSeconds(20).toNanos();
        List<String> missing = new ArrayList<>(inFlight.keySet());
        while (System.nanoTime() < deadline) {
            missing.removeIf(name -> inFlight.get(name).getAsBoolean());
            if (missing.isEmpty()) {
                System.out.printf("[crash-steps] every call in flight %d ms after the requests%n",
                        Duration.ofNanos(System.nanoTime() - start).toMillis());
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("calls not in flight in time: " + missing);
    }

    /**
     * Every publication settled: no step pending or unknown, unless it waits for an operator; and
     * still so a while later. A NOT_FOUND read-back of an update or delete looks settled (NOT_EXECUTED,
     * an operator's case) until the dispatcher sends the step again, a moment later.
     */
    private Map<String, JsonNode> awaitSettled(Map<String, String> ids) throws InterruptedException {
        Map<String, JsonNode> views = new LinkedHashMap<>();
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            ids.forEach((name, id) -> views.put(name, view(id)));
            if (views.values().stream().allMatch(CrashRecoveryStepsIT::settled)) {
                Thread.sleep(SETTLED_FOR.toMillis());
                Map<String, JsonNode> later = new LinkedHashMap<>();
                ids.forEach((name, id) -> later.put(name, view(id)));
                if (later.keySet().stream().allMatch(name -> state(later.get(name)).equals(state(views.get(name))))) {
                    return later;
                }
                continue;
            }
            Thread.sleep(500);
        }
        Map<String, String> byName = new TreeMap<>();
        views.forEach((name, v) -> byName.put(name, v.path("status").asText() + " " + stepNames(v)));
        throw new AssertionError("publications did not settle: " + byName);
    }

    /** What settling changes: the status, the operator's case, each step's status and the attempts made. */
    private static String state(JsonNode view) {
        return view.path("status").asText() + " " + view.path("needsDecision").asBoolean() + " " + stepNames(view)
                + " attempts=" + view.path("attempts").size();
    }

    private static boolean settled(JsonNode view) {
        if (!SETTLED.contains(view.path("status").asText())) {
            return false;
        }
        if (view.get("needsDecision").asBoolean()) {
            return true;
        }
        for (JsonNode step : view.get("steps")) {
            if (Set.of("PENDING", "OUTCOME_UNKNOWN").contains(step.get("status").asText())) {
                return false;
            }
        }
        return true;
    }

    private static List<String> stepNames(JsonNode view) {
        List<String> names = new ArrayList<>();
        view.path("steps").forEach(s -> names.add(s.get("step").asText() + ":" + s.get("status").asText()));
        return names;
    }

    /** The step's first attempt was the one the kill cut off: an unknown outcome, INTERRUPTED. */
    private void assertInterrupted(JsonNode view, int stepIndex) {
        JsonNode step = view.path("steps").path(stepIndex);
        int attemptNo = step.path("attemptNos").path(0).asInt();
        JsonNode attempt = MissingNode.getInstance();
        for (JsonNode a : view.path("attempts")) {
            if (a.path("attemptNo").asInt() == attemptNo) {
                attempt = a;
            }
        }
        String what = step.path("step").asText() + " of " + view.path("publicationId").asText();
        softly.assertThat(attempt.isMissingNode()).as("%s: attempt %d missing", what, attemptNo).isFalse();
        softly.assertThat(attempt.path("outcome").asText()).as("%s: outcome of the cut-off attempt", what)
                .isEqualTo("OUTCOME_UNKNOWN");
        softly.assertThat(attempt.path("unknownCause").asText()).as("%s: cause", what).isEqualTo("INTERRUPTED");
    }

    private void assertReconciled(JsonNode view, String step, String result) {
        JsonNode reconciliation = view.path("reconciliations").path(0);
        softly.assertThat(reconciliation.path("step").asText() + " " + reconciliation.path("result").asText())
                .as("read-back of %s", view.path("publicationId").asText()).isEqualTo(step + " " + result);
    }

    /** An update or delete cut off by the kill: read back, then done, sent {@code attempts - 1} times again. */
    private void assertChange(JsonNode view, String readBack, int attempts) {
        String id = view.path("publicationId").asText();
        softly.assertThat(view.path("status").asText()).as("status of %s", id).isEqualTo("SUCCEEDED");
        assertInterrupted(view, 0);
        softly.assertThat(view.path("reconciliations")).as("read-backs of %s", id).hasSize(1);
        softly.assertThat(view.path("reconciliations").path(0).path("result").asText()).as("read-back of %s", id)
                .isEqualTo(readBack);
        softly.assertThat(view.path("attempts")).as("attempts of %s", id).hasSize(attempts);
    }

    private JsonNode single(JsonNode list, String what) {
        softly.assertThat(list).as(what).hasSize(1);
        return list.path(0);
    }

    private static List<String> attachedIds(JsonNode post) {
        List<String> ids = new ArrayList<>();
        post.path("media").forEach(m -> ids.add(m.get("id").asText()));
        return ids;
    }

    private static String providerIdOf(JsonNode view, int stepIndex) {
        return view.path("steps").path(stepIndex).path("providerRef").path("id").asText();
    }

    private JsonNode media(String provider, String target) {
        return send("GET", "/sandbox/_truth/" + provider + "/" + target + "/media", null, null).json();
    }

    private JsonNode deleted(String provider, String target) {
        return send("GET", "/sandbox/_truth/" + provider + "/" + target + "/deleted", null, null).json();
    }

    /** The comments on the target's posts, all of them. */
    private int commentsAt(String provider, String target) {
        int comments = 0;
        for (JsonNode post : sandboxTruth(provider, target)) {
            comments += post.path("comments").size();
        }
        return comments;
    }

    private int editsAt(String page) {
        int edits = 0;
        for (JsonNode post : sandboxTruth("facebook", page)) {
            edits += post.path("edits").size();
        }
        return edits;
    }
}
