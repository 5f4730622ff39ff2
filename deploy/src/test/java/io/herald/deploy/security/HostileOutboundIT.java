package io.herald.deploy.security;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.herald.adapters.outbound.HostResolver;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.testsupport.TestDatabase;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.bean.override.convention.TestBean;

/**
 * Herald as it runs in production, outbound rules on (private networks not allowed), with its own
 * database and two real listeners on 127.0.0.1: an "internal" service no workspace may reach, and
 * the providers (Facebook and LinkedIn at their configured base URL, WordPress sites named in
 * {@code herald.outbound.allowed-hosts}). The only stand-in is the resolver behind the outbound
 * guard, so the test decides what names resolve to; every connection still goes through the guard.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
        "herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
        "herald.security.system-key=" + HostileOutboundIT.SYSTEM_KEY,
        "herald.security.rate-limit.limit-for-period=1000000",
        "herald.test.sandbox-loopback=false",
        "herald.sandbox.enabled=false",
        "herald.outbound.allow-private-networks=false",
        "herald.outbound.allowed-hosts=old-site.test,new-site.test",
        "herald.outbound.allowed-hosts-by-workspace." + HostileOutboundIT.TRUSTING + "=scoped-site.test"
})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class HostileOutboundIT {

    static final String SYSTEM_KEY = "hs.outbound-test-system-key-0123456789abcdefghijklmnop";
    /** The one workspace that trusts {@code scoped-site.test}. */
    static final String TRUSTING = "outbound-trusting";

    /** Something a workspace must never reach: any request arriving here is a failure. */
    private static final Listener INTERNAL = new Listener();
    /** The providers and the trusted WordPress sites. */
    private static final Listener PROVIDERS = new Listener();
    private static final ScriptedResolver RESOLVER = new ScriptedResolver();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final AtomicInteger WORKSPACES = new AtomicInteger();

    @TestBean
    HostResolver hostResolver;

    static HostResolver hostResolver() {
        return RESOLVER;
    }

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    private final ObjectMapper json = new ObjectMapper();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        // a database of its own: this application's processors must not act on other tests' events
        TestDatabase db = TestDatabase.shared().freshSibling();
        registry.add("spring.datasource.url", db::jdbcUrl);
        registry.add("herald.channels.facebook.graph-base-url", () -> PROVIDERS.base() + "/v25.0");
        registry.add("herald.channels.linkedin.api-base-url", () -> PROVIDERS.base() + "/linkedin");
    }

    @AfterAll
    static void stopListeners() {
        INTERNAL.server.stop(0);
        PROVIDERS.server.stop(0);
    }

    @Test
    void everyRefusedAddressFormIsRefusedAtRegistrationAndNothingReachesTheListener() {
        String ws = workspace("forms");
        int p = INTERNAL.port();
        RESOLVER.script("localhost", "127.0.0.1");
        RESOLVER.script("internal.test", "10.20.30.40");
        RESOLVER.script("metadata.test", "169.254.169.254");
        RESOLVER.script("mapped.test", "::ffff:127.0.0.1");
        List<String> refused = List.of(
                "http://127.0.0.1:" + p, "http://localhost:" + p + "/blog", "http://127.0.0.2:" + p,
                "http://2130706433:" + p, "http://0177.0.0.1:" + p, "http://0x7f.0.0.1:" + p,
                "http://0x7f000001:" + p, "http://127.1:" + p, "http://017700000001:" + p,
                "http://[::1]:" + p, "http://[::ffff:127.0.0.1]:" + p, "http://[::ffff:7f00:1]:" + p,
                "http://[0:0:0:0:0:ffff:7f00:1]:" + p, "http://[::127.0.0.1]:" + p,
                "http://[64:ff9b::7f00:1]:" + p, "http://[2002:7f00:1::1]:" + p,
                "http://0.0.0.0:" + p, "http://[::]:" + p,
                "http://10.0.0.1:" + p, "http://172.16.5.4:" + p, "http://192.168.0.10:" + p,
                "http://169.254.169.254/latest/meta-data/", "http://100.64.0.1:" + p,
                "http://[fc00::1]:" + p, "http://[fd12:3456::1]:" + p, "http://[fe80::1]:" + p,
                "http://[fe80::1%25lo]:" + p, "http://224.0.0.1:" + p, "http://[ff02::1]:" + p,
                "http://internal.test:" + p, "http://metadata.test/", "http://mapped.test:" + p,
                "http://editor:pw@93.184.216.34/", "https://93.184.216.34/#admin");

        SoftAssertions softly = new SoftAssertions();
        for (int i = 0; i < refused.size(); i++) {
            String url = refused.get(i);
            Response r = send("PUT", "/api/v1/workspaces/" + ws + "/channels/wp-" + i, wordPress(url, "editor",
                    "abcd efgh ijkl"));
            softly.assertThat(r.status()).as(url + " → " + r).isEqualTo(422);
            softly.assertThat(r.contentType()).as(url).startsWith("application/problem+json");
            softly.assertThat(r.code()).as(url).isEqualTo("destination_not_allowed");
            softly.assertThat(r.body()).as(url).doesNotContain("Exception");
        }
        softly.assertAll();

        assertThat(jdbc.queryForObject("SELECT count(*) FROM channel_connection WHERE workspace_id = ?",
                Long.class, ws)).isZero();
        assertThat(INTERNAL.requests).isEmpty();
    }

    @Test
    void aNameThatResolvesPubliclyAtRegistrationAndToLoopbackWhenCalledIsRefusedOnConnect() {
        String ws = workspace("rebind");
        // public when Herald checks the PUT, loopback for every lookup after that
        RESOLVER.script("rebind.test", "93.184.216.34", "127.0.0.1");

        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/wp-rebind",
                wordPress("http://rebind.test:" + INTERNAL.port() + "/blog", "editor", "rebind-password"));
        assertThat(put.status()).as(put.toString()).isEqualTo(201);
        // the probe of the PUT already connected through the guard, and was refused
        assertThat(put.json().path("capabilities").path("publish").path("available").asBoolean()).isFalse();

        Response requested = send("POST", "/api/v1/workspaces/" + ws + "/publications", """
                {"calendarEntryId":"rebind-1","contentVersion":1,"channelId":"wp-rebind","action":"publish",
                 "content":{"title":"T","body":"never delivered"}}""");
        assertThat(requested.status()).as(requested.toString()).isEqualTo(202);
        JsonNode view = await("/api/v1/workspaces/" + ws + "/publications/" + requested.json().get("publicationId")
                .asText(), v -> v.path("attempts").size() > 0
                && "NOT_SENT".equals(v.path("attempts").get(0).path("failureKind").asText()));

        // the same words as for a name that does not resolve: the kind of address is not told
        assertThat(view.path("attempts").get(0).path("detail").asText()).contains("destination not allowed")
                .contains(OutboundGuard.NAME_NOT_PUBLIC).doesNotContain("loopback");
        assertThat(RESOLVER.lookups("rebind.test")).isGreaterThanOrEqualTo(3);
        assertThat(INTERNAL.requests).isEmpty();
    }

    @Test
    void repointingAConnectionWithoutItsSecretIsRefusedAndTheOldSecretNeverReachesTheNewDestination() {
        String ws = workspace("repoint");
        String base = "/api/v1/workspaces/" + ws + "/channels/";
        RESOLVER.script("old-site.test", "127.0.0.1");
        RESOLVER.script("new-site.test", "127.0.0.1");
        String oldSite = "http://old-site.test:" + PROVIDERS.port() + "/blog";
        String newSite = "http://new-site.test:" + PROVIDERS.port() + "/blog";
        String oldPassword = "old-wordpress-password";
        String oldPageToken = "EAAold-page-token-0123456789";
        String oldReadToken = "EAAold-read-token-0123456789";
        String oldLinkedInToken = "AQVold-linkedin-token-0123456789";
        assertThat(send("PUT", base + "wp", wordPress(oldSite, "editor", oldPassword)).status()).isEqualTo(201);
        assertThat(send("PUT", base + "fb", "{\"type\":\"facebook\",\"pageId\":\"111111\",\"pageAccessToken\":\""
                + oldPageToken + "\",\"readAccessToken\":\"" + oldReadToken + "\"}").status()).isEqualTo(201);
        assertThat(send("PUT", base + "li", "{\"type\":\"linkedin\",\"authorUrn\":\"urn:li:person:old\","
                + "\"accessToken\":\"" + oldLinkedInToken + "\",\"scopes\":[\"w_member_social\"]}").status())
                .isEqualTo(201);

        record Repoint(String channel, String body, String secretField) {
        }
        List<Repoint> withoutSecret = List.of(
                new Repoint("wp", wordPress(newSite, "editor", null), "applicationPassword"),
                new Repoint("wp", wordPress(oldSite, "someone-else", null), "applicationPassword"),
                new Repoint("fb", "{\"type\":\"facebook\",\"pageId\":\"222222\"}", "pageAccessToken"),
                new Repoint("li", "{\"type\":\"linkedin\",\"authorUrn\":\"urn:li:person:new\","
                        + "\"scopes\":[\"w_member_social\"]}", "accessToken"));
        for (Repoint repoint : withoutSecret) {
            Response r = send("PUT", base + repoint.channel(), repoint.body());
            assertThat(r.status()).as(repoint + " → " + r).isEqualTo(400);
            assertThat(r.code()).isEqualTo("validation_failed");
            assertThat(r.json().path("errors").findValuesAsText("field")).containsExactly(repoint.secretField());
        }

        // nothing was stored: the connections still point where they did
        assertThat(jdbc.queryForList("SELECT settings::text FROM channel_connection WHERE workspace_id = ?",
                String.class, ws)).allSatisfy(settings -> assertThat(settings)
                .doesNotContain("new-site.test").doesNotContain("someone-else").doesNotContain("222222")
                .doesNotContain("urn:li:person:new"));
        assertThat(PROVIDERS.requests).noneSatisfy(r -> assertThat(r.host()).startsWith("new-site.test"));
        assertThat(PROVIDERS.requests).noneSatisfy(r -> assertThat(r.target()).contains("222222"));
        assertThat(PROVIDERS.requests).noneSatisfy(r -> assertThat(r.target()).containsAnyOf("person%3Anew",
                "person:new"));
        assertThat(PROVIDERS.requests).noneSatisfy(r -> assertThat(r.authorization())
                .isEqualTo(basic("someone-else", oldPassword)));

        // with the secret it may move; the new destinations see only the new secrets, never the old read token
        assertThat(send("PUT", base + "wp", wordPress(newSite, "editor", "new-wordpress-password")).status())
                .isEqualTo(200);
        assertThat(send("PUT", base + "fb", "{\"type\":\"facebook\",\"pageId\":\"222222\",\"pageAccessToken\":"
                + "\"EAAnew-page-token-0123456789\"}").status()).isEqualTo(200);
        List<Listener.Request> atNewDestinations = PROVIDERS.requests.stream()
                .filter(r -> r.host().startsWith("new-site.test") || r.target().contains("222222")).toList();
        assertThat(atNewDestinations).isNotEmpty();
        for (Listener.Request request : atNewDestinations) {
            assertThat(request.everything()).doesNotContain(basic("editor", oldPassword))
                    .doesNotContain(oldPageToken).doesNotContain(oldReadToken);
        }
    }

    @Test
    void webhookUrlsAtRefusedAddressesAreRefusedAtRegistrationAndNothingReachesTheListener() {
        String ws = workspace("hook-forms");
        int p = INTERNAL.port();
        RESOLVER.script("localhost", "127.0.0.1");
        RESOLVER.script("internal.test", "10.20.30.40");
        RESOLVER.script("metadata.test", "169.254.169.254");
        List<String> refused = List.of(
                "http://127.0.0.1:" + p + "/hooks", "http://localhost:" + p + "/hooks", "http://[::1]:" + p,
                "http://0x7f.0.0.1:" + p, "http://[::ffff:127.0.0.1]:" + p, "http://10.0.0.1/hooks",
                "http://192.168.0.10/hooks", "http://169.254.169.254/latest/meta-data/", "http://100.64.0.1/",
                "http://[fd12:3456::1]/", "http://internal.test:" + p, "http://metadata.test/",
                "http://calendar:pw@93.184.216.34/hooks", "https://93.184.216.34/hooks#admin",
                "ftp://93.184.216.34/hooks", "gopher://93.184.216.34/");
        SoftAssertions softly = new SoftAssertions();
        for (int i = 0; i < refused.size(); i++) {
            String url = refused.get(i);
            Response r = send("PUT", "/api/v1/workspaces/" + ws + "/webhooks/hook-" + i,
                    "{\"url\":\"" + url + "\",\"events\":[\"*\"]}");
            softly.assertThat(r.status()).as(url + " → " + r).isEqualTo(422);
            softly.assertThat(r.code()).as(url).isEqualTo("destination_not_allowed");
            softly.assertThat(r.body()).as(url).doesNotContain("Exception");
        }
        softly.assertAll();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM webhook_subscription WHERE workspace_id = ?",
                Long.class, ws)).isZero();
        assertThat(INTERNAL.requests).isEmpty();
    }

    @Test
    void aWebhookHostThatResolvesToLoopbackWhenCalledIsRefusedOnConnectAndRetried() {
        String ws = workspace("hook-rebind");
        // public when Herald checks the PUT, loopback for every lookup after that
        RESOLVER.script("hook-rebind.test", "93.184.216.34", "127.0.0.1");
        Response put = send("PUT", "/api/v1/workspaces/" + ws + "/webhooks/calendar",
                "{\"url\":\"http://hook-rebind.test:" + INTERNAL.port() + "/hooks\",\"events\":[\"*\"]}");
        assertThat(put.status()).as(put.toString()).isEqualTo(201);
        awaitRows("SELECT count(*) FROM webhook_subscription_view WHERE workspace_id = '" + ws + "'");
        assertThat(send("PUT", "/api/v1/workspaces/" + ws + "/channels/fb", "{\"type\":\"facebook\","
                + "\"pageId\":\"333333\",\"pageAccessToken\":\"EAAhook-rebind-token-0123\"}").status())
                .isIn(200, 201);
        Response requested = send("POST", "/api/v1/workspaces/" + ws + "/publications", """
                {"calendarEntryId":"hook-1","contentVersion":1,"channelId":"fb","action":"publish",
                 "content":{"body":"a status change to report"}}""");
        assertThat(requested.status()).as(requested.toString()).isEqualTo(202);

        JsonNode tried = await("/api/v1/workspaces/" + ws + "/webhooks/calendar/deliveries",
                page -> page.path("items").size() > 0 && page.path("items").get(0).path("tries").asInt() >= 2);
        JsonNode delivery = tried.path("items").get(0);
        assertThat(delivery.path("status").asText()).isEqualTo("PENDING");
        assertThat(delivery.path("lastError").asText()).contains(OutboundGuard.NAME_NOT_PUBLIC)
                .doesNotContain("loopback");
        assertThat(INTERNAL.requests).isEmpty();
    }

    @Test
    void aNameThatResolvesPrivatelyAndANameThatDoesNotResolveGetByteIdenticalAnswers() {
        String ws = workspace("oracle");
        RESOLVER.script("intranet.test", "10.9.8.7");
        String path = "/api/v1/workspaces/" + ws + "/channels/wp-probe";
        Response privateName = send("PUT", path, wordPress("https://intranet.test/blog", "editor", "pw-1234"));
        Response noSuchName = send("PUT", path, wordPress("https://no-such-name.test/blog", "editor", "pw-1234"));

        assertThat(privateName.status()).as(privateName.toString()).isEqualTo(422);
        assertThat(privateName.code()).isEqualTo("destination_not_allowed");
        // the same path, so the whole answer must be the same, byte for byte
        assertThat(noSuchName.body()).isEqualTo(privateName.body());
        assertThat(noSuchName.status()).isEqualTo(privateName.status());
        assertThat(noSuchName.contentType()).isEqualTo(privateName.contentType());

        RESOLVER.script("hooks.intranet.test", "192.168.7.7");
        Response privateHook = send("PUT", "/api/v1/workspaces/" + ws + "/webhooks/a",
                "{\"url\":\"https://hooks.intranet.test/in\",\"events\":[\"*\"]}");
        Response unknownHook = send("PUT", "/api/v1/workspaces/" + ws + "/webhooks/b",
                "{\"url\":\"https://hooks.no-such-name.test/in\",\"events\":[\"*\"]}");
        assertThat(privateHook.status()).as(privateHook.toString()).isEqualTo(422);
        assertThat(privateHook.code()).isEqualTo("destination_not_allowed");
        assertThat(unknownHook.status()).isEqualTo(422);
        assertThat(unknownHook.body().replace("/webhooks/b", "/webhooks/a")).isEqualTo(privateHook.body());
        assertThat(privateHook.body()).doesNotContain("private").doesNotContain("intranet");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM channel_connection WHERE workspace_id = ?",
                Long.class, ws)).isZero();
    }

    @Test
    void aHostTrustedForOneWorkspaceIsReachableForThatWorkspaceOnly() {
        RESOLVER.script("scoped-site.test", "127.0.0.1");
        String site = "http://scoped-site.test:" + PROVIDERS.port() + "/blog";
        String trusting = named(TRUSTING);
        String other = workspace("untrusting");

        Response refused = send("PUT", "/api/v1/workspaces/" + other + "/channels/wp",
                wordPress(site, "other-editor", "other-password"));
        assertThat(refused.status()).as(refused.toString()).isEqualTo(422);
        assertThat(refused.code()).isEqualTo("destination_not_allowed");
        Response refusedHook = send("PUT", "/api/v1/workspaces/" + other + "/webhooks/calendar",
                "{\"url\":\"" + site + "/hooks\",\"events\":[\"*\"]}");
        assertThat(refusedHook.status()).as(refusedHook.toString()).isEqualTo(422);

        Response accepted = send("PUT", "/api/v1/workspaces/" + trusting + "/channels/wp",
                wordPress(site, "trusting-editor", "trusting-password"));
        assertThat(accepted.status()).as(accepted.toString()).isEqualTo(201);
        Response acceptedHook = send("PUT", "/api/v1/workspaces/" + trusting + "/webhooks/calendar",
                "{\"url\":\"" + site + "/hooks\",\"events\":[\"*\"]}");
        assertThat(acceptedHook.status()).as(acceptedHook.toString()).isEqualTo(201);
        // the probe connected through the trusting workspace's guard, at connect time too
        assertThat(PROVIDERS.requests).anySatisfy(r -> {
            assertThat(r.host()).startsWith("scoped-site.test");
            assertThat(r.authorization()).isEqualTo(basic("trusting-editor", "trusting-password"));
        });
        assertThat(PROVIDERS.requests).noneSatisfy(r -> assertThat(r.authorization())
                .isEqualTo(basic("other-editor", "other-password")));
    }

    private void awaitRows(String countQuery) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (jdbc.queryForObject(countQuery, Long.class) == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no rows for " + countQuery);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static String wordPress(String siteUrl, String username, String password) {
        return "{\"type\":\"wordpress\",\"siteUrl\":\"" + siteUrl + "\",\"username\":\"" + username + "\""
                + (password == null ? "" : ",\"applicationPassword\":\"" + password + "\"") + "}";
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    // --- the HTTP API, as a workspace admin -------------------------------------------------

    private final Map<String, String> keys = new ConcurrentHashMap<>();

    private String workspace(String purpose) {
        return named("outbound-" + purpose + "-" + WORKSPACES.incrementAndGet());
    }

    private String named(String ws) {
        Response created = call(SYSTEM_KEY, "POST", "/api/v1/admin/workspaces",
                "{\"workspaceId\":\"" + ws + "\",\"name\":\"" + ws + "\"}");
        assertThat(created.status()).as(created.toString()).isIn(200, 201);
        Response key = call(SYSTEM_KEY, "POST", "/api/v1/workspaces/" + ws + "/keys",
                "{\"roles\":[\"admin\",\"publisher\",\"operator\"],\"label\":\"outbound\"}");
        assertThat(key.status()).as(key.toString()).isEqualTo(201);
        keys.put(ws, key.json().get("key").asText());
        return ws;
    }

    private Response send(String method, String path, String body) {
        String ws = path.split("/")[4];
        return call(keys.get(ws), method, path, body);
    }

    private Response call(String key, String method, String path, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        try {
            HttpResponse<String> r = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.body(), r.headers().firstValue("Content-Type").orElse(""), json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private JsonNode await(String path, Predicate<JsonNode> until) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Response last = null;
        while (System.nanoTime() < deadline) {
            last = send("GET", path, null);
            if (last.status() == 200 && until.test(last.json())) {
                return last.json();
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("condition not reached on " + path + "; last answer: " + last);
    }

    record Response(int status, String body, String contentType, ObjectMapper mapper) {
        JsonNode json() {
            try {
                return mapper.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }

        String code() {
            return contentType.startsWith("application/") && body.startsWith("{") ? json().path("code").asText() : "";
        }

        @Override
        public String toString() {
            return status + " " + contentType + " " + body;
        }
    }

    /** A real HTTP listener on 127.0.0.1 that answers {@code {}} and records every request it gets. */
    static final class Listener {
        record Request(String host, String target, String authorization, String body) {
            String everything() {
                return host + " " + target + " " + authorization + " " + body;
            }
        }

        final HttpServer server;
        final List<Request> requests = new CopyOnWriteArrayList<>();

        Listener() {
            try {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.createContext("/", exchange -> {
                requests.add(new Request(String.valueOf(exchange.getRequestHeaders().getFirst("Host")),
                        exchange.getRequestURI().toString(),
                        String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")),
                        new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
                byte[] answer = "{}".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, answer.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            });
            server.start();
        }

        int port() {
            return server.getAddress().getPort();
        }

        String base() {
            return "http://127.0.0.1:" + port();
        }
    }

    /**
     * Resolves names from a script: each lookup takes the next address, the last one repeats.
     * Names not in the script do not exist.
     */
    static final class ScriptedResolver implements HostResolver {
        private final Map<String, List<String>> script = new ConcurrentHashMap<>();
        private final Map<String, AtomicInteger> lookups = new ConcurrentHashMap<>();

        void script(String name, String... addresses) {
            script.put(name, List.of(addresses));
        }

        int lookups(String name) {
            return lookups.getOrDefault(name, new AtomicInteger()).get();
        }

        @Override
        public InetAddress[] resolve(String host) throws UnknownHostException {
            List<String> answers = script.get(host);
            if (answers == null) {
                throw new UnknownHostException(host);
            }
            int n = lookups.computeIfAbsent(host, h -> new AtomicInteger()).getAndIncrement();
            List<InetAddress> resolved = new ArrayList<>();
            resolved.add(InetAddress.getByName(answers.get(Math.min(n, answers.size() - 1))));
            return resolved.toArray(InetAddress[]::new);
        }
    }
}
