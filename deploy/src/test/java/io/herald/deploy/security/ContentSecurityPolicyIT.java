package io.herald.deploy.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Every answer carries one Content-Security-Policy, exactly the one DESIGN.md and the issue name:
 * the console's page and assets, API answers and problem answers from each place that writes
 * them (the security chain, Spring MVC, the body limit, the URL firewall).
 */
class ContentSecurityPolicyIT extends SecurityIntegrationTest {

    private static final String POLICY =
            "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void everyKindOfAnswerCarriesExactlyThePolicy() {
        String ws = newWorkspace("csp");
        createWorkspace(ws);
        String publisher = createKey(ws, List.of("publisher"), "csp");
        String base = "/api/v1/workspaces/" + ws;

        Map<String, HttpResponse<String>> answers = new LinkedHashMap<>();
        answers.put("API answer (200)", get(base + "/publications", publisher));
        answers.put("problem: no key (401)", get(base + "/publications", null));
        answers.put("problem: role missing (403)", get(base + "/decisions", publisher));
        answers.put("problem: no rule names it (403)", get("/actuator/metrics", publisher));
        answers.put("problem: from Spring MVC (404)", get(base + "/publications/pub_" + "0".repeat(64), publisher));
        answers.put("problem: body too large (413)", send(HttpRequest.newBuilder(uri(base + "/publications"))
                .header("Authorization", "Bearer " + publisher).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("x".repeat(300 * 1024)))));
        answers.put("problem: URL refused by the firewall (400)", get(base + "/publications/a%2Fb", publisher));
        answers.put("console page", get("/console", null));
        answers.put("console script", get("/console/console.js", null));
        answers.put("health", get("/actuator/health", null));

        SoftAssertions softly = new SoftAssertions();
        answers.forEach((what, response) -> softly.assertThat(response.headers().allValues("Content-Security-Policy"))
                .as(what + " -> " + response.statusCode() + " " + response.body()).containsExactly(POLICY));
        softly.assertThat(answers.get("API answer (200)").statusCode()).isEqualTo(200);
        softly.assertThat(answers.get("problem: no key (401)").statusCode()).isEqualTo(401);
        softly.assertThat(answers.get("problem: role missing (403)").statusCode()).isEqualTo(403);
        softly.assertThat(answers.get("problem: no rule names it (403)").statusCode()).isEqualTo(403);
        softly.assertThat(answers.get("problem: from Spring MVC (404)").statusCode()).isEqualTo(404);
        softly.assertThat(answers.get("problem: body too large (413)").statusCode()).isEqualTo(413);
        softly.assertThat(answers.get("problem: URL refused by the firewall (400)").statusCode()).isEqualTo(400);
        softly.assertThat(answers.get("console page").statusCode()).isEqualTo(200);
        softly.assertAll();
    }

    /** The policy allows no inline script or style: the console's page must have none. */
    @Test
    void theConsolePageHasNothingInlineThatThePolicyWouldBlock() {
        String page = get("/console", null).body();
        assertThat(page).contains("<script src=\"/console/console.js\"");
        assertThat(Pattern.compile("<script(?![^>]*\\bsrc=)[^>]*>", Pattern.CASE_INSENSITIVE).matcher(page).find())
                .as("an inline <script>").isFalse();
        assertThat(Pattern.compile("<style\\b|\\sstyle\\s*=|\\son[a-z]+\\s*=|javascript:", Pattern.CASE_INSENSITIVE)
                .matcher(page).find()).as("inline style, event handler or javascript: URL").isFalse();
    }

    private HttpResponse<String> get(String path, String key) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).GET();
        if (key != null) {
            request.header("Authorization", "Bearer " + key);
        }
        return send(request);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
