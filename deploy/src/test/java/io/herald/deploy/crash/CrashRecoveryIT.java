package io.herald.deploy.crash;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.StepScope;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.SandboxLoopback;
import io.herald.deploy.process.HeraldProcess;
import io.herald.deploy.process.StoredPublications;
import io.herald.sandbox.SandboxChannelsEnvironment;
import io.herald.sandbox.SandboxDemo;
import io.herald.sandbox.SandboxDemo.DemoConnection;
import io.herald.testsupport.TestDatabase;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.assertj.core.api.SoftAssertions;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Herald runs as its own process on PostgreSQL and is killed with SIGKILL once, then once for
 * each channel that prepares its posts, while attempts are in flight on every channel type it has:
 * one sandbox demo connection per registered type, each in a workspace of its own, all in the one
 * run (a type added later joins by its plug-in and its demo connection). The provider (the
 * sandbox, in this JVM) survives and keeps the ground truth.
 * Afterwards, per channel: every accepted request has a publication, no publication produced two
 * posts and a publication not executed none, every interrupted attempt ended as an unknown outcome
 * reconciled to the ground truth or re-sent with its key where the provider allows, and no attempt
 * followed an unknown outcome without a NOT_FOUND in between but a same-key re-send on a
 * {@code client_id} or {@code provider_key} connection.
 */
class CrashRecoveryIT extends HeraldIntegrationTest {

    private static final int PUBLICATIONS_PER_CHANNEL = 6;
    private static final String CRASH_SYSTEM_KEY = "hs.crash-test-system-key-abcdefghijklmnopqrstuvwxyz012345";
    private static final Set<String> SETTLED = Set.of("SUCCEEDED", "NOT_EXECUTED", "FAILED", "ABANDONED");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long after its effect the sandbox answers a call; below the read timeout. */
    private static final Duration LATENCY = Duration.ofSeconds(4);
    /** A post younger than this is a call Herald still waits for, allowing for the polling. */
    private static final Duration MID_CALL = Duration.ofMillis(2500);

    @Autowired
    private ChannelPlugins plugins;

    @Autowired
    private SandboxDemo demo;

    private final String run = Long.toString(System.nanoTime() % 10_000_000);

    /** One publication of the test: its channel, the text that finds its posts, its id once accepted. */
    private record Sent(Channel channel, int n, String text, Future<String> id) {
    }

    /**
     * A channel under test: a demo connection, connected in its own workspace; {@code mediaId} the
     * image its posts carry where the channel takes no post without one (null elsewhere).
     */
    private record Channel(DemoConnection connection, String workspace, String key, String mediaId) {

        String type() {
            return connection.type();
        }
    }

    @Test
    void killedWhileAttemptsAreInFlightOnEveryChannelHeraldLosesNothingAndNeverPostsTwice() throws Exception {
        long started = System.nanoTime();
        String sandbox = "http://localhost:" + SandboxLoopback.port();
        List<DemoConnection> connections = onePerRegisteredType(demo.register(sandbox));
        TestDatabase database = TestDatabase.shared().freshSibling();
        Path log = Path.of("target", "crash-test-herald.log");
        Files.deleteIfExists(log);
        List<String> arguments = new ArrayList<>(List.of(
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                "--herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
                "--herald.security.system-key=" + CRASH_SYSTEM_KEY,
                "--herald.security.rate-limit.limit-for-period=100000",
                "--herald.publishing.attempt-timeout=15s",
                "--herald.reconciliation.settle-delay=2s",
                "--herald.reconciliation.retry-schedule=2s,4s,8s",
                // channels whose provider fetches the images read them at Herald's public address
                "--herald.public-base-url=http://localhost:${server.port}"));
        SandboxChannelsEnvironment.pointedAt(sandbox).forEach((key, value) -> arguments.add("--" + key + "=" + value));
        for (DemoConnection connection : connections) {
            arguments.add("--herald.channels." + connection.type() + ".read-timeout=6s");
        }
        HeraldProcess herald = new HeraldProcess(arguments, log);
        ExecutorService senders = Executors.newFixedThreadPool(4);
        try {
            herald.start();
            List<Channel> channels = new ArrayList<>();
            for (DemoConnection connection : connections) {
                channels.add(connect(herald, connection));
            }
            // every answer of every provider comes 4 s after the call's effect (below the read timeout):
            // a post that appeared at the provider less than that ago is a call still in flight
            sandbox("PUT", "/latency", "{\"millis\":" + LATENCY.toMillis() + "}");
            List<Sent> sent = new ArrayList<>();
            for (int i = 0; i < PUBLICATIONS_PER_CHANNEL; i++) {
                for (Channel channel : channels) {
                    int n = i;
                    String text = marker() + channel.connection().channelId() + "-" + n + " ends here";
                    sent.add(new Sent(channel, n, text, senders.submit(() -> sendUntilAccepted(herald, channel, n, text))));
                }
            }
            // a post made in one call is in flight in the first seconds; a post prepared first (a
            // container, then its publication) takes several calls, at a pace of its own channel's:
            // the first kill waits for the former, then one kill for each channel of the latter, so
            // that each is killed mid-call on a post of its own (waiting for all of them at once, one
            // could finish its posts between two kills and never be caught)
            List<Channel> oneCall = channels.stream().filter(c -> !preparedOncePerPost(c)).toList();
            List<List<Channel>> waves = new ArrayList<>();
            waves.add(oneCall.isEmpty() ? channels : oneCall);
            channels.stream().filter(this::preparedOncePerPost).forEach(channel -> waves.add(List.of(channel)));
            int kills = 0;
            while (kills < waves.size()) {
                killMidCall(herald, waves.get(kills));
                kills++;
                System.out.printf("[crash-test] SIGKILL #%d after %d s%n", kills,
                        Duration.ofNanos(System.nanoTime() - started).toSeconds());
                herald.start();
            }
            SoftAssertions softly = new SoftAssertions();
            for (Channel channel : channels) {
                List<Sent> ofChannel = sent.stream().filter(s -> s.channel() == channel).toList();
                check(herald, database, channel, ofChannel, kills, softly);
            }
            System.out.printf("[crash-test] checked after %d s%n",
                    Duration.ofNanos(System.nanoTime() - started).toSeconds());
            softly.assertAll();
        } finally {
            senders.shutdownNow();
            herald.stop();
            sandbox("PUT", "/latency", "{\"millis\":0}");
        }
    }

    /**
     * Kills Herald once every channel still publishing has a call at its provider that is not
     * answered yet: a post of the test appeared there within {@link #MID_CALL} (the answer follows
     * {@link #LATENCY} after it). Kills anyway once the calls are over (a post came, and none since
     * {@link #MID_CALL}) or after a while; the check of the interrupted attempts then says which
     * channel was not hit.
     */
    private void killMidCall(HeraldProcess herald, List<Channel> channels) throws Exception {
        Map<Channel, Integer> seen = new HashMap<>();
        Map<Channel, Long> lastNew = new HashMap<>();
        for (Channel channel : channels) {
            seen.put(channel, testPosts(channel));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            for (Channel channel : channels) {
                int posts = testPosts(channel);
                if (posts > seen.get(channel)) {
                    seen.put(channel, posts);
                    lastNew.put(channel, System.nanoTime());
                }
            }
            long fresh = System.nanoTime() - MID_CALL.toNanos();
            boolean everyChannelMidCall = channels.stream().allMatch(channel ->
                    seen.get(channel) >= PUBLICATIONS_PER_CHANNEL
                            || (lastNew.containsKey(channel) && lastNew.get(channel) - fresh > 0));
            // the publications still open wait for a read-back, not a call: no post comes any more
            boolean callsOver = !lastNew.isEmpty() && lastNew.values().stream().allMatch(at -> at - fresh < 0);
            if (everyChannelMidCall || callsOver) {
                break;
            }
            Thread.sleep(100);
        }
        herald.kill();
    }

    /** Whether the channel prepares each post in a step of its own before the post step (a container). */
    private boolean preparedOncePerPost(Channel channel) {
        return plugins.plugin(ChannelType.of(channel.type())).stepKinds(PublicationAction.PUBLISH).stream()
                .anyMatch(kind -> kind.preparesPost() && kind.scope() == StepScope.PER_POST);
    }

    /** How many posts of this test's run exist where the channel publishes. */
    private int testPosts(Channel channel) {
        int count = 0;
        for (JsonNode post : send("GET", "/sandbox/_truth/demo/" + channel.connection().channelId(), null, null).json()) {
            if (post.path("text").asText().contains(marker())) {
                count++;
            }
        }
        return count;
    }

    private String marker() {
        return "Crash test " + run + " post ";
    }

    /**
     * The first demo connection of each channel type Herald registers; a registered type without one
     * fails the test, so a new channel cannot stay out of it.
     */
    private List<DemoConnection> onePerRegisteredType(List<DemoConnection> all) {
        Map<String, DemoConnection> byType = new LinkedHashMap<>();
        all.forEach(c -> byType.putIfAbsent(c.type(), c));
        List<String> registered = plugins.types().stream().map(ChannelType::wireName).sorted().toList();
        assertThat(byType.keySet()).as("channel types with a demo connection in the sandbox")
                .containsAll(registered);
        return registered.stream().map(byType::get).toList();
    }

    private Channel connect(HeraldProcess herald, DemoConnection connection) throws Exception {
        String ws = "crash" + run + "-" + connection.type();
        herald.call(CRASH_SYSTEM_KEY, "POST", "/api/v1/admin/workspaces",
                "{\"workspaceId\":\"" + ws + "\",\"name\":\"crash test " + connection.type() + "\"}");
        String key = herald.call(CRASH_SYSTEM_KEY, "POST", "/api/v1/workspaces/" + ws + "/keys",
                "{\"roles\":[\"publisher\",\"operator\",\"auditor\",\"admin\"],\"label\":\"crash\"}")
                .get("key").asText();
        herald.call(key, "PUT", "/api/v1/workspaces/" + ws + "/channels/" + connection.channelId(),
                JSON.writeValueAsString(connection.fields()));
        String mediaId = null;
        if (needsAnImage(connection.type())) {
            HttpResponse<String> uploaded = herald.send(key, "POST", "/api/v1/workspaces/" + ws + "/media", jpeg(),
                    "image/jpeg");
            assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);
            mediaId = JSON.readTree(uploaded.body()).get("mediaId").asText();
        }
        return new Channel(connection, ws, key, mediaId);
    }

    /** The channel's limits refuse a post without an image (a channel whose posts are images). */
    private boolean needsAnImage(String type) {
        return plugins.plugin(ChannelType.of(type)).adapter()
                .validate(new Content(null, "text only", null), PublicationAction.PUBLISH).stream()
                .anyMatch(violation -> violation.field().equals("content.media"));
    }

    private static byte[] jpeg() throws IOException {
        BufferedImage image = new BufferedImage(64, 64, BufferedImage.TYPE_INT_RGB);
        image.setRGB(3, 5, 0xff3366);
        try (ByteArrayOutputStream out = new ByteArrayOutputStream()) {
            ImageIO.write(image, "jpg", out);
            return out.toByteArray();
        }
    }

    /** One channel's publications against the posts at its provider and the event store. */
    private void check(HeraldProcess herald, TestDatabase database, Channel channel, List<Sent> sent, int kills,
                       SoftAssertions softly) throws Exception {
        String type = channel.type();
        Set<String> ids = new TreeSet<>();
        for (Sent s : sent) {
            ids.add(s.id().get());
        }
        Map<String, JsonNode> views = awaitSettled(herald, channel, ids);
        JsonNode posts = send("GET", "/sandbox/_truth/demo/" + channel.connection().channelId(), null, null).json();
        Map<String, Integer> postsByText = new TreeMap<>();
        for (Sent s : sent) {
            int found = 0;
            for (JsonNode post : posts) {
                if (post.path("text").asText().contains(s.text())) {
                    found++;
                }
            }
            postsByText.put(s.text(), found);
        }
        StoredPublications replay;
        try (Connection c = database.connect()) {
            replay = StoredPublications.read(c, json, channel.workspace());
        }
        int lost = (int) ids.stream().filter(id -> replay.requested.getOrDefault(id, 0) != 1).count();
        int succeeded = 0;
        int notExecuted = 0;
        for (Sent s : sent) {
            String id = s.id().get();
            String status = views.get(id).path("status").asText();
            int count = postsByText.get(s.text());
            if (status.equals("SUCCEEDED")) {
                succeeded++;
                softly.assertThat(count).as("%s: posts of the succeeded publication %s", type, id).isEqualTo(1);
            } else {
                notExecuted++;
                softly.assertThat(status).as("%s: publication %s", type, id).isEqualTo("NOT_EXECUTED");
                softly.assertThat(count).as("%s: posts of the publication not executed %s", type, id).isZero();
            }
        }
        int duplicates = (int) postsByText.values().stream().filter(c -> c > 1).count();
        System.out.printf("[crash-test] channel=%s kills=%d accepted=%d publications=%d lost=%d succeeded=%d "
                        + "not_executed=%d interrupted_attempts=%d reconciled_interrupted=%d resent_interrupted=%d "
                        + "posts=%d duplicate_posts=%d "
                        + "attempts_after_unknown_without_not_found=%d same_key_resends=%d "
                        + "timers_fired_twice_with_effect=%d%n",
                type, kills, sent.size(), views.size(), lost, succeeded, notExecuted, replay.interrupted,
                replay.interruptedReconciled, replay.interruptedResent,
                postsByText.values().stream().mapToInt(Integer::intValue).sum(),
                duplicates, replay.blindRetries, replay.sameKeyResends, replay.firedTwiceWithEffect());
        softly.assertThat(views).as("%s: publications", type).hasSize(sent.size());
        softly.assertThat(lost).as("%s: lost publications", type).isZero();
        softly.assertThat(duplicates).as("%s: publications posted twice", type).isZero();
        softly.assertThat(replay.blindRetries).as("%s: attempts after an unknown outcome without NOT_FOUND that are "
                + "not a same-key re-send", type).isZero();
        softly.assertThat(replay.firedTwiceWithEffect()).as("%s: timers fired twice with effect", type).isZero();
        softly.assertThat(replay.interrupted).as("%s: attempts in flight when Herald was killed", type).isPositive();
        softly.assertThat(replay.interruptedReconciled + replay.interruptedResent)
                .as("%s: interrupted attempts reconciled or re-sent with their key", type)
                .isEqualTo(replay.interrupted);
    }

    /** The calendar system's side: send until Herald accepts, whatever happens to it meanwhile. */
    private String sendUntilAccepted(HeraldProcess herald, Channel channel, int i, String text) throws Exception {
        String body = "{\"calendarEntryId\":\"entry-" + i + "\",\"contentVersion\":1,\"channelId\":\""
                + channel.connection().channelId() + "\",\"action\":\"publish\",\"content\":{\"body\":\"" + text + "\""
                + (channel.mediaId() == null ? "" : ",\"media\":[{\"mediaId\":\"" + channel.mediaId() + "\"}]") + "}}";
        long deadline = System.nanoTime() + Duration.ofMinutes(4).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = herald.send(channel.key(), "POST",
                        "/api/v1/workspaces/" + channel.workspace() + "/publications", body);
                if (r.statusCode() == 200 || r.statusCode() == 202) {
                    return json.readTree(r.body()).get("publicationId").asText();
                }
            } catch (IOException herladIsDown) {
                // killed or restarting: the request is idempotent, send it again
            }
            Thread.sleep(300);
        }
        throw new AssertionError("publication " + i + " on " + channel.type() + " was never accepted");
    }

    private Map<String, JsonNode> awaitSettled(HeraldProcess herald, Channel channel, Set<String> ids)
            throws Exception {
        Map<String, JsonNode> views = new HashMap<>();
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < deadline) {
            for (String id : ids) {
                HttpResponse<String> answer = herald.send(channel.key(), "GET",
                        "/api/v1/workspaces/" + channel.workspace() + "/publications/" + id, null);
                // the view is written after the request is answered: under load it may not hold the row yet
                if (answer.statusCode() == 404) {
                    views.put(id, JSON.createObjectNode());
                    continue;
                }
                assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                views.put(id, JSON.readTree(answer.body()));
            }
            boolean settled = views.values().stream().allMatch(v -> SETTLED.contains(v.path("status").asText()));
            if (settled) {
                return views;
            }
            Thread.sleep(500);
        }
        Map<String, Long> byStatus = new TreeMap<>();
        views.values().forEach(v -> byStatus.merge(v.path("status").asText("NOT_IN_VIEW"), 1L, Long::sum));
        throw new AssertionError(channel.type() + ": publications did not settle: " + byStatus);
    }
}
