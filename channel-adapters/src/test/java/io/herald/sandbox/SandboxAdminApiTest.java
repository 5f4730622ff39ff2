package io.herald.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.SandboxTestSupport;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** The admin API as a non-Java client would use it: minimal JSON, defaults filled in. */
class SandboxAdminApiTest extends SandboxTestSupport {

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> call(String method, String path, String json, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(sandbox.baseUrl() + path))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void minimalFaultJsonAppliesOnceToTheNextPublish() throws Exception {
        String page = numericId();
        String token = unique("EAAAdmin");
        assertThat(call("POST", "/sandbox/_admin/facebook/tokens",
                "{\"token\":\"" + token + "\",\"pageId\":\"" + page + "\"}").statusCode()).isEqualTo(204);
        assertThat(call("POST", "/sandbox/_admin/faults",
                "{\"provider\":\"facebook\",\"target\":\"" + page + "\",\"type\":\"ERROR_5XX_NO_EFFECT\"}").statusCode())
                .isEqualTo(204);

        String form = "message=hello&published=true";
        HttpResponse<String> first = call("POST", "/sandbox/facebook/v25.0/" + page + "/feed", null,
                "Authorization", "Bearer " + token);
        HttpResponse<String> failed = call("POST", "/sandbox/facebook/v25.0/" + page + "/feed", null,
                "Authorization", "Bearer " + token);
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(sandbox.facebookGraphUrl() + "/" + page + "/feed"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(first.statusCode()).isEqualTo(500);
        assertThat(Json.parse(first.body()).path("error").path("code").asInt()).isEqualTo(2);
        assertThat(failed.statusCode()).isEqualTo(400);
        assertThat(Json.parse(failed.body()).path("error").path("code").asInt()).isEqualTo(197);
        assertThat(created.statusCode()).isEqualTo(200);
        assertThat(created.headers().firstValue("x-fb-trace-id")).isPresent();
        assertThat(created.headers().firstValue("x-business-use-case-usage")).isPresent();
        assertThat(Json.parse(call("GET", "/sandbox/_truth/facebook/" + page, null).body())).hasSize(1);
    }

    @Test
    void wordPressAnswersOnBothRouteForms() throws Exception {
        String site = unique("routes");
        sandbox.wordPressSite(site, "editor", "pass word", true);

        HttpResponse<String> pretty = call("GET", "/sandbox/wordpress/" + site + "/wp-json/wp/v2/users/me", null);
        HttpResponse<String> plain = call("GET", "/sandbox/wordpress/" + site + "/?rest_route=/wp/v2/users/me", null,
                "Authorization", "Basic " + java.util.Base64.getEncoder().encodeToString("editor:password".getBytes()));

        assertThat(pretty.statusCode()).isEqualTo(401);
        assertThat(Json.parse(pretty.body()).path("code").asText()).isEqualTo("rest_not_logged_in");
        assertThat(plain.statusCode()).isEqualTo(200);
    }

    @Test
    void eachProviderPlacesPostsAtItsOwnAdminPathAsBefore() throws Exception {
        String page = numericId();
        String author = "urn:li:person:" + unique("seed");
        String site = unique("seed");

        String facebook = sandbox.seed("facebook", page, "by hand", "https://example.org/a", null);
        String linkedIn = sandbox.seed("linkedin", author, "a_b (c)", null, null);
        HttpResponse<String> wordPress = call("POST", "/sandbox/_admin/wordpress/" + site + "/posts",
                "{\"text\":\"a draft\",\"status\":\"draft\",\"publicationMeta\":\"pub_1\"}");

        assertThat(facebook).startsWith(page + "_");
        var facebookPost = sandbox.truth("facebook", page).get(0);
        assertThat(facebookPost.path("id").asText()).isEqualTo(facebook);
        assertThat(facebookPost.path("link").asText()).isEqualTo("https://example.org/a");
        assertThat(facebookPost.path("status").asText()).isEqualTo("published");
        var linkedInPost = sandbox.truth("linkedin", author).get(0);
        assertThat(linkedInPost.path("id").asText()).isEqualTo(linkedIn).startsWith("urn:li:share:");
        assertThat(linkedInPost.path("storedText").asText()).isEqualTo("a\\_b \\(c\\)");
        assertThat(linkedInPost.path("status").asText()).isEqualTo("PUBLISHED");
        assertThat(wordPress.statusCode()).isEqualTo(200);
        var wordPressPost = sandbox.truth("wordpress", site).get(0);
        assertThat(wordPressPost.path("id").asText()).isEqualTo(Json.parse(wordPress.body()).path("id").asText());
        assertThat(wordPressPost.path("status").asText()).isEqualTo("draft");
        assertThat(wordPressPost.path("publicationMeta").asText()).isEqualTo("pub_1");
        assertThat(call("POST", "/sandbox/_admin/nowhere/" + site + "/posts", "{\"text\":\"x\"}").statusCode())
                .isEqualTo(404);
    }

    @Test
    void theDemoTruthListsThePostsOfEveryDemoConnectionWhateverItsType() throws Exception {
        SandboxDemo.definitions(sandbox.baseUrl()).forEach(connection -> {
            try {
                HttpResponse<String> posts = call("GET", "/sandbox/_truth/demo/" + connection.channelId(), null);
                assertThat(posts.statusCode()).as(connection.channelId()).isEqualTo(200);
                assertThat(Json.parse(posts.body()).isArray()).isTrue();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
        String text = unique("demo post ");
        String id = sandbox.seed("facebook", SandboxDemo.FACEBOOK_PAGE, text, null, null);
        var posts = Json.parse(call("GET", "/sandbox/_truth/demo/fb-demo", null).body());
        assertThat(posts.findValuesAsText("id")).contains(id);
        assertThat(posts.findValuesAsText("text")).contains(text);
        assertThat(call("GET", "/sandbox/_truth/demo/not-a-demo", null).statusCode()).isEqualTo(404);

        String account = Json.parse(call("POST", "/sandbox/_admin/mastodon/accounts", "{\"username\":\""
                + SandboxDemo.MASTODON_USERNAME + "\",\"token\":\"" + SandboxDemo.MASTODON_TOKEN + "\"}").body())
                .path("id").asText();
        String status = unique("demo status ");
        String statusId = Json.parse(call("POST", "/sandbox/_admin/mastodon/accounts/" + account + "/statuses",
                "{\"text\":\"" + status + "\"}").body()).path("id").asText();
        var statuses = Json.parse(call("GET", "/sandbox/_truth/demo/masto-demo", null).body());
        assertThat(statuses.findValuesAsText("id")).contains(statusId);
        assertThat(statuses.findValuesAsText("text")).contains(status);
    }

    @Test
    void theSharedLatencyHoldsTheMastodonAnswers() throws Exception {
        assertThat(call("PUT", "/sandbox/_admin/latency", "{\"millis\":1500}").statusCode()).isLessThan(300);
        try {
            long start = System.nanoTime();
            HttpResponse<String> answer = call("GET", "/sandbox/mastodon/api/v2/instance", null);
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(tookMillis).as("milliseconds to the answer").isGreaterThanOrEqualTo(1500);
        } finally {
            call("PUT", "/sandbox/_admin/latency", "{\"millis\":0}");
        }
    }
}
