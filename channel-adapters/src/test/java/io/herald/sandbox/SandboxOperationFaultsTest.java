package io.herald.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.SandboxTestSupport;
import io.herald.platform.wire.Json;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every new operation (upload, comment, edit, delete, and LinkedIn's upload registration) under
 * every fault mode posts have, over real HTTP: whether an answer came, which, and whether the
 * effect happened, by the sandbox's own truth.
 */
class SandboxOperationFaultsTest extends SandboxTestSupport {

    /** Long enough for any normal answer here; the late answers of the faults come far later. */
    private static final Duration CLIENT_TIMEOUT = Duration.ofMillis(1500);
    /**
     * For the two modes whose answer comes late (DELAY_THEN_CREATE, after {@link #LATE_MILLIS}) or
     * never (CREATE_AFTER): the client gives up soon instead of waiting out a normal answer's time,
     * though not before its request has surely arrived (the effect must happen).
     */
    private static final Duration GIVE_UP = Duration.ofMillis(500);
    private static final long LATE_MILLIS = 20_000;
    private static final long AFTER_MILLIS = 200;

    private final SandboxHttp http = new SandboxHttp(server.baseUrl());

    /** One operation, set up fresh: the request to send, whose fault target it is, and whether its effect shows. */
    record Scenario(String provider, String target, SandboxFault.Operation operation, HttpRequest.Builder request,
                    BooleanSupplier effect, int rateLimited, int tokenError) {
    }

    private record Case(String name, Function<SandboxOperationFaultsTest, Scenario> setUp) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        List<Case> operations = List.of(
                new Case("facebook photo upload", SandboxOperationFaultsTest::facebookUpload),
                new Case("facebook comment", SandboxOperationFaultsTest::facebookComment),
                new Case("facebook edit", SandboxOperationFaultsTest::facebookEdit),
                new Case("facebook delete", SandboxOperationFaultsTest::facebookDelete),
                new Case("linkedin initialize upload", SandboxOperationFaultsTest::linkedInInitialize),
                new Case("linkedin upload", SandboxOperationFaultsTest::linkedInUpload),
                new Case("linkedin comment", SandboxOperationFaultsTest::linkedInComment),
                new Case("linkedin edit", SandboxOperationFaultsTest::linkedInEdit),
                new Case("linkedin delete", SandboxOperationFaultsTest::linkedInDelete),
                new Case("wordpress media upload", SandboxOperationFaultsTest::wordPressUpload),
                new Case("wordpress edit", SandboxOperationFaultsTest::wordPressEdit),
                new Case("wordpress delete", SandboxOperationFaultsTest::wordPressDelete));
        List<Arguments> all = new ArrayList<>();
        for (Case operation : operations) {
            for (SandboxFault.Type type : SandboxFault.Type.values()) {
                all.add(Arguments.of(operation, type));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} under {1}")
    @MethodSource("cases")
    void eachOperationHonoursEachFaultMode(Case operation, SandboxFault.Type type) throws InterruptedException {
        Scenario scenario = operation.setUp().apply(this);
        assertThat(scenario.effect().getAsBoolean()).as("no effect before the request").isFalse();
        long delay = type == SandboxFault.Type.CREATE_AFTER ? AFTER_MILLIS : LATE_MILLIS;
        sandbox.fault(new SandboxFault(scenario.provider(), scenario.target(), type, scenario.operation(), 1, delay, 0,
                null));

        boolean answersLate = type == SandboxFault.Type.DELAY_THEN_CREATE || type == SandboxFault.Type.CREATE_AFTER;
        SandboxHttp.Outcome outcome = http.attempt(scenario.request().timeout(answersLate ? GIVE_UP : CLIENT_TIMEOUT)
                .build());

        switch (type) {
            case DELAY_THEN_CREATE -> {
                assertThat(outcome.failure()).isEqualTo("timeout");
                // looked for within 10 s, long before the answer (20 s)
                assertThat(eventually(scenario.effect())).as("done before the late answer").isTrue();
            }
            case CREATE_AFTER -> {
                assertThat(outcome.failure()).isEqualTo("timeout");
                assertThat(eventually(scenario.effect())).as("done after the delay, without an answer").isTrue();
            }
            case ERROR_5XX_WITH_EFFECT -> {
                assertThat(outcome.status()).isEqualTo(500);
                assertThat(scenario.effect().getAsBoolean()).isTrue();
            }
            case ERROR_5XX_NO_EFFECT -> {
                assertThat(outcome.status()).isEqualTo(500);
                assertThat(scenario.effect().getAsBoolean()).isFalse();
            }
            case RESET_AFTER_READ -> {
                assertThat(outcome.failure()).isEqualTo("closed");
                assertThat(scenario.effect().getAsBoolean()).isFalse();
            }
            case RATE_LIMIT -> {
                assertThat(outcome.status()).as(outcome.body()).isEqualTo(scenario.rateLimited());
                assertThat(scenario.effect().getAsBoolean()).isFalse();
            }
            case TOKEN_ERROR -> {
                assertThat(outcome.status()).as(outcome.body()).isEqualTo(scenario.tokenError());
                assertThat(scenario.effect().getAsBoolean()).isFalse();
            }
        }
        // a refusal without effect used the fault up: the same request again has its effect
        if (type == SandboxFault.Type.RATE_LIMIT || type == SandboxFault.Type.ERROR_5XX_NO_EFFECT
                || type == SandboxFault.Type.TOKEN_ERROR || type == SandboxFault.Type.RESET_AFTER_READ) {
            SandboxHttp.Outcome again = http.attempt(scenario.request().timeout(Duration.ofSeconds(30)).build());
            assertThat(again.status()).as(again.body()).isBetween(200, 299);
            assertThat(scenario.effect().getAsBoolean()).isTrue();
        }
    }

    private static boolean eventually(BooleanSupplier effect) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            if (effect.getAsBoolean()) {
                return true;
            }
            Thread.sleep(25);
        }
        return effect.getAsBoolean();
    }

    // Facebook: the fault target is the Page

    private record Page(String id, String token) {
    }

    private Page page() {
        Page page = new Page(numericId(), unique("EAAF"));
        sandbox.facebookToken(page.token(), page.id(), SandboxState.FacebookTokenKind.PAGE);
        return page;
    }

    private HttpRequest.Builder graph(Page page, String method, String path, String... form) {
        return http.request(method, sandbox.facebookGraphUrl() + path, SandboxHttp.form(form))
                .header("Authorization", "Bearer " + page.token())
                .header("Content-Type", "application/x-www-form-urlencoded");
    }

    private String facebookPost(Page page) {
        return Json.parse(http.send(graph(page, "POST", "/" + page.id() + "/feed", "message", unique("post ")).build())
                .body()).path("id").asText();
    }

    private JsonNode facebookTruth(Page page) {
        return sandbox.truth("facebook", page.id());
    }

    private Scenario facebookUpload() {
        Page page = page();
        SandboxHttp.Multipart body = SandboxHttp.Multipart.of("source", "p.png", "image/png",
                SandboxHttp.image("png", 4, 4), "published", "false");
        HttpRequest.Builder request = http.request("POST", sandbox.facebookGraphUrl() + "/" + page.id() + "/photos",
                        HttpRequest.BodyPublishers.ofByteArray(body.body()))
                .header("Authorization", "Bearer " + page.token()).header("Content-Type", body.contentType());
        return new Scenario("facebook", page.id(), SandboxFault.Operation.UPLOAD, request,
                () -> sandbox.media("facebook", page.id()).size() == 1, 400, 400);
    }

    private Scenario facebookComment() {
        Page page = page();
        String post = facebookPost(page);
        return new Scenario("facebook", page.id(), SandboxFault.Operation.COMMENT,
                graph(page, "POST", "/" + post + "/comments", "message", "first"),
                () -> facebookTruth(page).get(0).path("comments").size() == 1, 400, 400);
    }

    private Scenario facebookEdit() {
        Page page = page();
        String post = facebookPost(page);
        return new Scenario("facebook", page.id(), SandboxFault.Operation.EDIT,
                graph(page, "POST", "/" + post, "message", "edited"),
                () -> facebookTruth(page).get(0).path("text").asText().equals("edited"), 400, 400);
    }

    private Scenario facebookDelete() {
        Page page = page();
        String post = facebookPost(page);
        return new Scenario("facebook", page.id(), SandboxFault.Operation.DELETE,
                graph(page, "DELETE", "/" + post),
                () -> facebookTruth(page).isEmpty(), 400, 400);
    }

    // LinkedIn: the fault target is the author (the image's owner)

    private record Member(String author, String token) {
    }

    private Member member() {
        Member member = new Member("urn:li:person:" + unique("m"), unique("li"));
        sandbox.linkedInToken(member.token(), member.author(), List.of("w_member_social", "r_member_social"));
        return member;
    }

    private HttpRequest.Builder rest(Member member, String method, String pathOrUrl, String json) {
        HttpRequest.Builder request = http.request(method,
                        pathOrUrl.startsWith("http") ? pathOrUrl : sandbox.linkedInApiUrl() + pathOrUrl,
                        json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .header("Authorization", "Bearer " + member.token()).header("LinkedIn-Version", "202611")
                .header("X-Restli-Protocol-Version", "2.0.0");
        return json == null ? request : request.header("Content-Type", "application/json");
    }

    private String linkedInPost(Member member) {
        return http.send(rest(member, "POST", "/rest/posts", "{\"author\":\"" + member.author()
                        + "\",\"commentary\":\"" + unique("post ") + "\",\"lifecycleState\":\"PUBLISHED\"}").build())
                .headers().firstValue("x-restli-id").orElseThrow();
    }

    private static String initializeBody(Member member) {
        return "{\"initializeUploadRequest\":{\"owner\":\"" + member.author() + "\"}}";
    }

    private Scenario linkedInInitialize() {
        Member member = member();
        return new Scenario("linkedin", member.author(), SandboxFault.Operation.INITIALIZE_UPLOAD,
                rest(member, "POST", "/rest/images?action=initializeUpload", initializeBody(member)),
                () -> sandbox.media("linkedin", member.author()).size() == 1, 429, 401);
    }

    private Scenario linkedInUpload() {
        Member member = member();
        String uploadUrl = Json.parse(http.send(rest(member, "POST", "/rest/images?action=initializeUpload",
                initializeBody(member)).build()).body()).path("value").path("uploadUrl").asText();
        HttpRequest.Builder request = http.request("PUT", uploadUrl,
                        HttpRequest.BodyPublishers.ofByteArray(SandboxHttp.image("png", 3, 3)))
                .header("Authorization", "Bearer " + member.token());
        return new Scenario("linkedin", member.author(), SandboxFault.Operation.UPLOAD, request,
                () -> sandbox.media("linkedin", member.author()).get(0).path("status").asText().equals("AVAILABLE"),
                429, 401);
    }

    private Scenario linkedInComment() {
        Member member = member();
        String urn = linkedInPost(member);
        return new Scenario("linkedin", member.author(), SandboxFault.Operation.COMMENT,
                rest(member, "POST", "/rest/socialActions/" + SandboxHttp.enc(urn) + "/comments", "{\"actor\":\""
                        + member.author() + "\",\"object\":\"" + urn + "\",\"message\":{\"text\":\"first\"}}"),
                () -> sandbox.truth("linkedin", member.author()).get(0).path("comments").size() == 1, 429, 401);
    }

    private Scenario linkedInEdit() {
        Member member = member();
        String urn = linkedInPost(member);
        return new Scenario("linkedin", member.author(), SandboxFault.Operation.EDIT,
                rest(member, "POST", "/rest/posts/" + SandboxHttp.enc(urn),
                        "{\"patch\":{\"$set\":{\"commentary\":\"edited\"}}}").header("X-RestLi-Method", "PARTIAL_UPDATE"),
                () -> sandbox.truth("linkedin", member.author()).get(0).path("text").asText().equals("edited"),
                429, 401);
    }

    private Scenario linkedInDelete() {
        Member member = member();
        String urn = linkedInPost(member);
        return new Scenario("linkedin", member.author(), SandboxFault.Operation.DELETE,
                rest(member, "DELETE", "/rest/posts/" + SandboxHttp.enc(urn), null),
                () -> sandbox.truth("linkedin", member.author()).isEmpty(), 429, 401);
    }

    // WordPress: the fault target is the site

    private String site() {
        String site = unique("faults");
        sandbox.wordPressSite(site, "editor", "pw", false);
        return site;
    }

    private HttpRequest.Builder wp(String site, String method, String route, String json) {
        return http.request(method, sandbox.wordPressSiteUrl(site) + "/wp-json/wp/v2" + route,
                        json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .header("Authorization", SandboxHttp.basic("editor", "pw")).header("Content-Type", "application/json");
    }

    private String wordPressPost(String site) {
        return Json.parse(http.send(wp(site, "POST", "/posts", "{\"title\":\"t\",\"content\":\"before\","
                + "\"status\":\"publish\"}").build()).body()).path("id").asText();
    }

    private Scenario wordPressUpload() {
        String site = site();
        HttpRequest.Builder request = http.request("POST", sandbox.wordPressSiteUrl(site) + "/wp-json/wp/v2/media",
                        HttpRequest.BodyPublishers.ofByteArray(SandboxHttp.image("png", 2, 2)))
                .header("Authorization", SandboxHttp.basic("editor", "pw")).header("Content-Type", "image/png")
                .header("Content-Disposition", "attachment; filename=\"a.png\"");
        return new Scenario("wordpress", site, SandboxFault.Operation.UPLOAD, request,
                () -> sandbox.media("wordpress", site).size() == 1, 429, 401);
    }

    private Scenario wordPressEdit() {
        String site = site();
        String id = wordPressPost(site);
        return new Scenario("wordpress", site, SandboxFault.Operation.EDIT,
                wp(site, "POST", "/posts/" + id, "{\"content\":\"after\"}"),
                () -> sandbox.truth("wordpress", site).get(0).path("text").asText().equals("after"), 429, 401);
    }

    private Scenario wordPressDelete() {
        String site = site();
        String id = wordPressPost(site);
        return new Scenario("wordpress", site, SandboxFault.Operation.DELETE,
                wp(site, "DELETE", "/posts/" + id, null),
                () -> sandbox.truth("wordpress", site).get(0).path("status").asText().equals("trash"), 429, 401);
    }
}
