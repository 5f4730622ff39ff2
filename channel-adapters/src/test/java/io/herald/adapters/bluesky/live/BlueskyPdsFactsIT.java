package io.herald.adapters.bluesky.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.bluesky.live.BlueskyPds.Account;
import io.herald.adapters.bluesky.live.Xrpc.Answer;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The wire facts Herald's Bluesky adapter relies on, pinned against the reference PDS
 * ({@link BlueskyPds}) with plain HTTP calls: sessions and their failures, a post written under a
 * record key chosen by the client with {@code swapRecord: null} (a repeat is the same record, other
 * content is refused), read-back, images, replies, deletes. If the PDS changes any of them, this
 * test says which before the adapter misbehaves. The last two tests show that a {@link HoldingProxy}
 * in front of the PDS produces a post whose client never heard of it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BlueskyPdsFactsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String POSTS = BlueskyPds.POST_COLLECTION;

    private String skip;
    private BlueskyPds pds;
    private Xrpc xrpc;

    @BeforeAll
    void startThePds() throws IOException {
        Optional<String> unavailable = BlueskyPds.whyUnavailable();
        // CI installs the reference PDS (.ci/bluesky.sh): there a missing one is a failure, never a skip
        if (unavailable.isPresent() && BlueskyPds.requiredHere()) {
            fail("CI=true but the reference PDS is not installed: " + unavailable.get());
        }
        if (unavailable.isPresent()) {
            skip = unavailable.get();
            banner();
            return;
        }
        try {
            pds = BlueskyPds.start();
        } catch (IllegalStateException | IOException e) {
            // CI has just run .ci/bluesky.sh, so there an installed PDS that does not start is a failure.
            if (BlueskyPds.requiredHere()) {
                fail("the reference PDS is installed but did not start", e);
            }
            skip = "the PDS in " + BlueskyPds.home() + " did not start (" + e.getMessage() + ")";
            banner();
            return;
        }
        xrpc = pds.xrpc();
    }

    @AfterAll
    void stopThePds() {
        if (pds != null) {
            pds.close();
        }
    }

    // Per test rather than once, so that every skipped test is counted as skipped in the report.
    @BeforeEach
    void pdsIsRunning() {
        assumeTrue(skip == null, () -> BlueskyPds.skipMessage(skip));
    }

    private void banner() {
        String stars = "*".repeat(110);
        String banner = String.join(System.lineSeparator(), stars, "*** " + BlueskyPds.skipMessage(skip), stars);
        System.err.println(banner);
        // Maven sends System.err to a report file; this reaches the console of the build too.
        PrintStream console = new PrintStream(new FileOutputStream(FileDescriptor.err), true);
        console.println(banner);
    }

    @Test
    void theReferencePdsRunsTheVersionTheAdapterWasCheckedAgainst() throws Exception {
        assertThat(pds.version()).isEqualTo("0.5.35");
        Answer described = xrpc.get("com.atproto.server.describeServer", null, Map.of());
        assertThat(described.status()).isEqualTo(200);
        assertThat(described.body().path("inviteCodeRequired").asBoolean()).isFalse();
    }

    @Test
    void aSessionIsCreatedWithTheAppPasswordAndAWrongPasswordIs401() throws Exception {
        Account account = pds.createAccount("session");

        Answer session = createSession(account.handle(), account.appPassword());

        assertThat(session.status()).as("%s", session).isEqualTo(200);
        assertThat(session.body().path("accessJwt").asText()).isNotBlank();
        assertThat(session.body().path("refreshJwt").asText()).isNotBlank();
        assertThat(session.body().path("handle").asText()).isEqualTo(account.handle());
        assertThat(session.body().path("did").asText()).isEqualTo(account.did()).startsWith("did:plc:");
        assertThat(session.body().path("active").asBoolean()).isTrue();

        Answer wrong = createSession(account.handle(), "not-the-password");
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.error()).isEqualTo("AuthenticationRequired");
    }

    @Test
    void aHandleOfAnAccountHereResolvesToItsDidAndAnUnknownOneIs400HandleNotFound() throws Exception {
        Account account = pds.createAccount("resolve");

        Answer known = xrpc.get("com.atproto.identity.resolveHandle", null, Map.of("handle", account.handle()));
        Answer unknown = xrpc.get("com.atproto.identity.resolveHandle", null,
                Map.of("handle", "nobody-" + System.nanoTime() + ".test"));

        assertThat(known.status()).as("%s", known).isEqualTo(200);
        assertThat(known.body().path("did").asText()).isEqualTo(account.did());
        assertThat(unknown.status()).as("%s", unknown).isEqualTo(400);
        assertThat(unknown.error()).isEqualTo("HandleNotFound");
        assertThat(unknown.body().path("message").asText()).isEqualTo("Unable to resolve handle");
    }

    @Test
    void putRecordUnderANewKeyCreatesThePostAndAByteIdenticalRepeatIsTheSameRecord() throws Exception {
        Session session = session("put");
        String rkey = tid();
        ObjectNode request = putPost(session, rkey, post("Exactly once, by construction", Instant.now()));

        Answer first = xrpc.post("com.atproto.repo.putRecord", session.access(), request);
        Answer repeat = xrpc.post("com.atproto.repo.putRecord", session.access(), request);

        assertThat(first.status()).as("%s", first).isEqualTo(200);
        assertThat(first.body().path("uri").asText()).isEqualTo("at://" + session.did() + "/" + POSTS + "/" + rkey);
        assertThat(first.body().path("cid").asText()).isNotBlank();
        assertThat(repeat.status()).as("%s", repeat).isEqualTo(200);
        assertThat(repeat.body().path("uri").asText()).isEqualTo(first.body().path("uri").asText());
        assertThat(repeat.body().path("cid").asText()).isEqualTo(first.body().path("cid").asText());
        // the first write made a commit; the repeat changed nothing, so it names none
        assertThat(first.body().has("commit")).isTrue();
        assertThat(repeat.body().has("commit")).isFalse();
        assertThat(postsOf(session.did())).hasSize(1);
    }

    @Test
    void otherContentUnderAnExistingKeyIsInvalidSwapAndLeavesThePostAsItWas() throws Exception {
        Session session = session("swap");
        String rkey = tid();
        Instant createdAt = Instant.now();
        Answer first = xrpc.post("com.atproto.repo.putRecord", session.access(),
                putPost(session, rkey, post("The first text", createdAt)));
        assertThat(first.status()).as("%s", first).isEqualTo(200);

        Answer other = xrpc.post("com.atproto.repo.putRecord", session.access(),
                putPost(session, rkey, post("Another text", createdAt)));
        Answer laterCreatedAt = xrpc.post("com.atproto.repo.putRecord", session.access(),
                putPost(session, rkey, post("The first text", createdAt.plusMillis(1))));

        assertThat(other.status()).as("%s", other).isEqualTo(400);
        assertThat(other.error()).isEqualTo("InvalidSwap");
        assertThat(laterCreatedAt.status()).as("a createdAt chosen again is other content").isEqualTo(400);
        assertThat(laterCreatedAt.error()).isEqualTo("InvalidSwap");
        Answer stored = xrpc.getRecord(session.did(), POSTS, rkey);
        assertThat(stored.body().path("cid").asText()).isEqualTo(first.body().path("cid").asText());
        assertThat(stored.body().path("value").path("text").asText()).isEqualTo("The first text");
    }

    @Test
    void createRecordUnderAnExistingKeyIsA500IndistinguishableFromAFault() throws Exception {
        Session session = session("create");
        String rkey = tid();
        ObjectNode record = post("Created once", Instant.now());
        assertThat(xrpc.post("com.atproto.repo.putRecord", session.access(), putPost(session, rkey, record)).status())
                .isEqualTo(200);

        ObjectNode create = JSON.createObjectNode().put("repo", session.did()).put("collection", POSTS).put("rkey", rkey);
        create.set("record", record);
        Answer again = xrpc.post("com.atproto.repo.createRecord", session.access(), create);

        assertThat(again.status()).as("%s", again).isEqualTo(500);
        assertThat(again.error()).isEqualTo("InternalServerError");
        assertThat(postsOf(session.did())).hasSize(1);
    }

    @Test
    void getRecordReadsThePostBackAndAnUnknownKeyIsRecordNotFound() throws Exception {
        Session session = session("read");
        String rkey = tid();
        ObjectNode record = post("Read me back", Instant.parse("2026-12-04T10:15:30.123Z"));
        Answer written = xrpc.post("com.atproto.repo.putRecord", session.access(), putPost(session, rkey, record));

        Answer found = xrpc.getRecord(session.did(), POSTS, rkey);
        Answer unknown = xrpc.getRecord(session.did(), POSTS, tid());

        assertThat(found.status()).isEqualTo(200);
        assertThat(found.body().path("uri").asText()).isEqualTo(written.body().path("uri").asText());
        assertThat(found.body().path("cid").asText()).isEqualTo(written.body().path("cid").asText());
        assertThat(found.body().path("value")).isEqualTo(record);
        assertThat(unknown.status()).as("%s", unknown).isEqualTo(400);
        assertThat(unknown.error()).isEqualTo("RecordNotFound");
    }

    @Test
    void anUploadedImageIsEmbeddedInAPostWithAltTextAndAspectRatio() throws Exception {
        Session session = session("image");
        byte[] png = png(40, 30);

        Answer uploaded = xrpc.postBytes("com.atproto.repo.uploadBlob", session.access(), "image/png", png);

        assertThat(uploaded.status()).as("%s", uploaded).isEqualTo(200);
        JsonNode blob = uploaded.body().path("blob");
        assertThat(blob.path("$type").asText()).isEqualTo("blob");
        assertThat(blob.path("ref").path("$link").asText()).isNotBlank();
        assertThat(blob.path("mimeType").asText()).isEqualTo("image/png");
        assertThat(blob.path("size").asInt()).isEqualTo(png.length);
        // the same bytes again: the same blob (an upload may be repeated)
        Answer again = xrpc.postBytes("com.atproto.repo.uploadBlob", session.access(), "image/png", png);
        assertThat(again.body().path("blob")).isEqualTo(blob);

        ObjectNode record = post("With a picture", Instant.now());
        ObjectNode image = JSON.createObjectNode().put("alt", "A grey rectangle");
        image.set("image", blob);
        image.set("aspectRatio", JSON.createObjectNode().put("width", 40).put("height", 30));
        ObjectNode embed = record.putObject("embed").put("$type", "app.bsky.embed.images");
        embed.putArray("images").add(image);
        String rkey = tid();
        Answer posted = xrpc.post("com.atproto.repo.putRecord", session.access(), putPost(session, rkey, record));

        assertThat(posted.status()).as("%s", posted).isEqualTo(200);
        JsonNode stored = xrpc.getRecord(session.did(), POSTS, rkey).body().path("value").path("embed");
        assertThat(stored.path("images").get(0).path("image").path("ref").path("$link").asText())
                .isEqualTo(blob.path("ref").path("$link").asText());
        assertThat(stored.path("images").get(0).path("alt").asText()).isEqualTo("A grey rectangle");
    }

    @Test
    void aPostOutsideThePostRulesIsInvalidRequestAndNothingIsWritten() throws Exception {
        Session session = session("limits");
        String text300 = "é".repeat(300);

        Answer atTheLimit = xrpc.post("com.atproto.repo.putRecord", session.access(),
                putPost(session, tid(), post(text300, Instant.now())));
        Answer tooLong = xrpc.post("com.atproto.repo.putRecord", session.access(),
                putPost(session, tid(), post(text300 + "é", Instant.now())));
        Answer notATid = xrpc.post("com.atproto.repo.putRecord", session.access(),
                putPost(session, "herald-post-1", post("Under a key of my own", Instant.now())));
        // A blob of up to the server's upload limit (5 MB here) is taken, but a post embeds at most 2,000,000 bytes.
        byte[] tooBig = new byte[2_000_001];
        ThreadLocalRandom.current().nextBytes(tooBig);
        System.arraycopy(png(1, 1), 0, tooBig, 0, 8);
        Answer uploaded = xrpc.postBytes("com.atproto.repo.uploadBlob", session.access(), "image/png", tooBig);
        ObjectNode record = post("A picture too big", Instant.now());
        ObjectNode image = JSON.createObjectNode().put("alt", "");
        image.set("image", uploaded.body().path("blob"));
        record.putObject("embed").put("$type", "app.bsky.embed.images").putArray("images").add(image);
        Answer withTooBigImage = xrpc.post("com.atproto.repo.putRecord", session.access(),
                putPost(session, tid(), record));

        assertThat(atTheLimit.status()).as("300 graphemes (600 bytes): %s", atTheLimit).isEqualTo(200);
        assertThat(tooLong.status()).as("%s", tooLong).isEqualTo(400);
        assertThat(tooLong.error()).isEqualTo("InvalidRequest");
        assertThat(notATid.status()).as("a post's record key must be a TID: %s", notATid).isEqualTo(400);
        assertThat(notATid.error()).isEqualTo("InvalidRequest");
        assertThat(uploaded.status()).as("%s", uploaded).isEqualTo(200);
        assertThat(withTooBigImage.status()).as("%s", withTooBigImage).isEqualTo(400);
        assertThat(withTooBigImage.error()).isEqualTo("InvalidRequest");
        assertThat(postsOf(session.did())).hasSize(1);
    }

    @Test
    void aReplyPointsAtThePostAsRootAndParent() throws Exception {
        Session session = session("reply");
        String postKey = tid();
        Answer post = xrpc.post("com.atproto.repo.putRecord", session.access(),
                putPost(session, postKey, post("The post", Instant.now())));
        ObjectNode reference = JSON.createObjectNode()
                .put("uri", post.body().path("uri").asText())
                .put("cid", post.body().path("cid").asText());

        ObjectNode reply = post("The first comment", Instant.now());
        ObjectNode replyTo = reply.putObject("reply");
        replyTo.set("root", reference);
        replyTo.set("parent", reference);
        String replyKey = tid();
        Answer written = xrpc.post("com.atproto.repo.putRecord", session.access(), putPost(session, replyKey, reply));
        Answer repeated = xrpc.post("com.atproto.repo.putRecord", session.access(), putPost(session, replyKey, reply));

        assertThat(written.status()).as("%s", written).isEqualTo(200);
        assertThat(repeated.body().path("cid").asText()).isEqualTo(written.body().path("cid").asText());
        JsonNode stored = xrpc.getRecord(session.did(), POSTS, replyKey).body().path("value").path("reply");
        assertThat(stored.path("root")).isEqualTo(reference);
        assertThat(stored.path("parent")).isEqualTo(reference);
        assertThat(postsOf(session.did())).hasSize(2);
    }

    @Test
    void aDeletedPostIsRecordNotFoundAndASecondDeleteIsANoOp() throws Exception {
        Session session = session("delete");
        String rkey = tid();
        xrpc.post("com.atproto.repo.putRecord", session.access(), putPost(session, rkey, post("Short-lived", Instant.now())));
        ObjectNode delete = JSON.createObjectNode().put("repo", session.did()).put("collection", POSTS).put("rkey", rkey);

        Answer deleted = xrpc.post("com.atproto.repo.deleteRecord", session.access(), delete);
        Answer afterwards = xrpc.getRecord(session.did(), POSTS, rkey);
        Answer deletedAgain = xrpc.post("com.atproto.repo.deleteRecord", session.access(), delete);

        assertThat(deleted.status()).as("%s", deleted).isEqualTo(200);
        assertThat(afterwards.status()).isEqualTo(400);
        assertThat(afterwards.error()).isEqualTo("RecordNotFound");
        assertThat(deletedAgain.status()).as("%s", deletedAgain).isEqualTo(200);
        assertThat(postsOf(session.did())).isEmpty();
    }

    @Test
    void refreshSessionGivesANewPairThatWorksAndARepeatedRefreshIsTheSameSession() throws Exception {
        Session session = session("refresh");

        Answer refreshed = xrpc.post("com.atproto.server.refreshSession", session.refresh());

        assertThat(refreshed.status()).as("%s", refreshed).isEqualTo(200);
        // An access token has no id of its own: one refreshed in the same second as the last is the same text.
        String access = refreshed.body().path("accessJwt").asText();
        assertThat(access).isNotBlank();
        String refresh = refreshed.body().path("refreshJwt").asText();
        assertThat(refresh).isNotBlank().isNotEqualTo(session.refresh());
        assertThat(claims(refresh).path("jti").asText()).isNotEqualTo(claims(session.refresh()).path("jti").asText());
        assertThat(refreshed.body().path("did").asText()).isEqualTo(session.did());
        // The used refresh token still works for a grace period (two hours), and always leads to the
        // same next refresh token: a refresh whose answer was lost can simply be made again.
        Answer repeated = xrpc.post("com.atproto.server.refreshSession", session.refresh());
        assertThat(repeated.status()).as("%s", repeated).isEqualTo(200);
        assertThat(claims(repeated.body().path("refreshJwt").asText()).path("jti").asText())
                .isEqualTo(claims(refresh).path("jti").asText());
        Answer probe = xrpc.get("com.atproto.server.getSession", access, Map.of());
        assertThat(probe.status()).isEqualTo(200);
        assertThat(probe.body().path("did").asText()).isEqualTo(session.did());
        // an access token is a refresh token's wrong kind
        Answer wrongKind = xrpc.post("com.atproto.server.refreshSession", access);
        assertThat(wrongKind.status()).isEqualTo(400);
        assertThat(wrongKind.error()).isEqualTo("InvalidToken");
    }

    @Test
    void anExpiredAccessTokenIs400ExpiredTokenAndATamperedOneIs400InvalidToken() throws Exception {
        Session session = session("expired");

        Answer expired = xrpc.get("com.atproto.server.getSession", pds.expiredCopyOf(session.access()), Map.of());
        Answer expiredWrite = xrpc.post("com.atproto.repo.putRecord", pds.expiredCopyOf(session.access()),
                putPost(session, tid(), post("Too late", Instant.now())));
        String access = session.access();
        String tampered = access.substring(0, access.length() - 2) + (access.endsWith("AA") ? "BB" : "AA");
        Answer invalid = xrpc.get("com.atproto.server.getSession", tampered, Map.of());

        assertThat(expired.status()).as("%s", expired).isEqualTo(400);
        assertThat(expired.error()).isEqualTo("ExpiredToken");
        assertThat(expired.body().path("message").asText()).isEqualTo("Token has expired");
        assertThat(expiredWrite.status()).isEqualTo(400);
        assertThat(expiredWrite.error()).isEqualTo("ExpiredToken");
        assertThat(invalid.status()).as("%s", invalid).isEqualTo(400);
        assertThat(invalid.error()).isEqualTo("InvalidToken");
        assertThat(postsOf(session.did())).isEmpty();
    }

    @Test
    void aRevokedRefreshTokenIs400ExpiredTokenWhileItsAccessTokenLivesOn() throws Exception {
        Session session = session("revoked");

        Answer deleted = xrpc.post("com.atproto.server.deleteSession", session.refresh());
        Answer refreshed = xrpc.post("com.atproto.server.refreshSession", session.refresh());
        Answer access = xrpc.get("com.atproto.server.getSession", session.access(), Map.of());

        assertThat(deleted.status()).as("%s", deleted).isEqualTo(200);
        assertThat(refreshed.status()).as("%s", refreshed).isEqualTo(400);
        assertThat(refreshed.error()).isEqualTo("ExpiredToken");
        assertThat(refreshed.body().path("message").asText()).isEqualTo("Token has been revoked");
        // the access token is a signed, stateless JWT: it stays good until it expires
        assertThat(access.status()).isEqualTo(200);
    }

    @Test
    void anAnswerHeldPastTheClientsTimeoutLeavesThePostWrittenAndTheResendIsTheSameRecord() throws Exception {
        Session session = session("heldanswer");
        String rkey = tid();
        ObjectNode request = putPost(session, rkey, post("Written, never acknowledged", Instant.now()));
        try (HoldingProxy proxy = new HoldingProxy(pds.url())) {
            Xrpc throughProxy = xrpc.via(proxy.url());
            proxy.holdNextAnswer("POST", "/xrpc/com.atproto.repo.putRecord", Duration.ofSeconds(6), 1);

            assertThatThrownBy(() -> throughProxy.post("com.atproto.repo.putRecord", session.access(), request,
                    Duration.ofSeconds(2)))
                    .isInstanceOf(HttpTimeoutException.class);
            Answer readBack = xrpc.getRecord(session.did(), POSTS, rkey);
            Answer resent = throughProxy.post("com.atproto.repo.putRecord", session.access(), request);

            assertThat(proxy.held()).isEqualTo(1);
            assertThat(readBack.status()).as("the post exists though the client heard nothing").isEqualTo(200);
            assertThat(resent.status()).as("%s", resent).isEqualTo(200);
            assertThat(resent.body().path("cid").asText()).isEqualTo(readBack.body().path("cid").asText());
            assertThat(proxy.requests("POST", "/xrpc/com.atproto.repo.putRecord")).isEqualTo(2);
            assertThat(postsOf(session.did())).hasSize(1);
        }
    }

    @Test
    void aRequestHeldPastTheClientsTimeoutLandsLateAndOnlyOnce() throws Exception {
        Session session = session("heldrequest");
        String rkey = tid();
        ObjectNode request = putPost(session, rkey, post("Arrives after the client gave up", Instant.now()));
        try (HoldingProxy proxy = new HoldingProxy(pds.url())) {
            Xrpc throughProxy = xrpc.via(proxy.url());
            proxy.holdNextRequest("POST", "/xrpc/com.atproto.repo.putRecord", Duration.ofSeconds(6), 1);

            assertThatThrownBy(() -> throughProxy.post("com.atproto.repo.putRecord", session.access(), request,
                    Duration.ofSeconds(2)))
                    .isInstanceOf(HttpTimeoutException.class);
            Answer beforeItLands = xrpc.getRecord(session.did(), POSTS, rkey);
            Answer landed = awaitRecord(session.did(), rkey, Duration.ofSeconds(30));

            assertThat(beforeItLands.error()).as("the held request has not reached the PDS yet").isEqualTo("RecordNotFound");
            assertThat(landed.status()).as("the held request was carried out after the client gave up").isEqualTo(200);
            Answer resent = throughProxy.post("com.atproto.repo.putRecord", session.access(), request);
            assertThat(resent.body().path("cid").asText()).isEqualTo(landed.body().path("cid").asText());
            assertThat(postsOf(session.did())).hasSize(1);
        }
    }

    // --- sessions, records, keys and images ---------------------------------------------------

    private record Session(String did, String access, String refresh) {}

    private Answer createSession(String identifier, String password) throws IOException, InterruptedException {
        return xrpc.post("com.atproto.server.createSession", null,
                JSON.createObjectNode().put("identifier", identifier).put("password", password));
    }

    /** A new account and a session made with its app password, as Herald makes one. */
    private Session session(String prefix) throws IOException, InterruptedException {
        Account account = pds.createAccount(prefix);
        Answer session = createSession(account.handle(), account.appPassword());
        assertThat(session.status()).as("%s", session).isEqualTo(200);
        return new Session(account.did(), session.body().path("accessJwt").asText(),
                session.body().path("refreshJwt").asText());
    }

    private static JsonNode claims(String jwt) throws IOException {
        return JSON.readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
    }

    private static ObjectNode post(String text, Instant createdAt) {
        return JSON.createObjectNode()
                .put("$type", POSTS)
                .put("text", text)
                .put("createdAt", createdAt.truncatedTo(ChronoUnit.MILLIS).toString());
    }

    private static ObjectNode putPost(Session session, String rkey, ObjectNode record) {
        ObjectNode request = JSON.createObjectNode()
                .put("repo", session.did())
                .put("collection", POSTS)
                .put("rkey", rkey);
        request.set("record", record);
        request.set("swapRecord", NullNode.getInstance());
        return request;
    }

    private ArrayNode postsOf(String did) throws IOException, InterruptedException {
        Answer listed = xrpc.listRecords(did, POSTS);
        assertThat(listed.status()).as("%s", listed).isEqualTo(200);
        return (ArrayNode) listed.body().path("records");
    }

    private Answer awaitRecord(String did, String rkey, Duration within) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        Answer answer = xrpc.getRecord(did, POSTS, rkey);
        while (answer.status() != 200 && System.nanoTime() < deadline) {
            Thread.sleep(250);
            answer = xrpc.getRecord(did, POSTS, rkey);
        }
        return answer;
    }

    private static final String BASE32_SORTABLE = "234567abcdefghijklmnopqrstuvwxyz";
    private static final AtomicLong LAST_MICROS = new AtomicLong();

    /**
     * A record key in the TID form: 53 bits of microseconds since the epoch and a 10-bit clock id,
     * in base32-sortable, 13 characters; strictly increasing within this JVM.
     */
    private static String tid() {
        Instant now = Instant.now();
        long micros = now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
        long unique = LAST_MICROS.updateAndGet(last -> Math.max(last + 1, micros));
        long value = (unique << 10) | ThreadLocalRandom.current().nextInt(1024);
        char[] key = new char[13];
        for (int i = 12; i >= 0; i--) {
            key[i] = BASE32_SORTABLE.charAt((int) (value & 31));
            value >>>= 5;
        }
        String tid = new String(key);
        assertThat(tid).matches("^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$");
        return tid;
    }

    private static byte[] png(int width, int height) throws IOException {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        for (int x = 0; x < width; x++) {
            for (int y = 0; y < height; y++) {
                image.setRGB(x, y, 0x808080 + x + y);
            }
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ImageIO.write(image, "png", bytes);
        return bytes.toByteArray();
    }
}
