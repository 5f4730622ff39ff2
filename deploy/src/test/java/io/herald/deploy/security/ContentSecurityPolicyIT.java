package io.herald.deploy.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every answer carries one Content-Security-Policy, exactly the one docs/api.md#authentication-and-roles and the issue name:
 * the console's page and assets, API answers and problem answers from each place that writes
 * them (the security chain, Spring MVC, the body limit, the URL firewall).
 */
class ContentSecurityPolicyIT extends SecurityIntegrationTest {

    private static final String POLICY =
            "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
    private static final String SWAGGER_UI_POLICY = "default-src 'self'; script-src 'self';"
            + " style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none';"
            + " frame-ancestors 'none'";
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

    /** Tomcat refuses a malformed URL before Herald's filters see it; its problem answer carries the policy too. */
    @Test
    void aUrlTomcatRefusesStillGetsThePolicy() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET /api/v1/%zz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 400");
            assertThat(answer).contains("application/problem+json").contains("refused before it reached Herald");
            assertThat(answer.lines().filter(line -> line.regionMatches(true, 0, "Content-Security-Policy:", 0, 24)))
                    .containsExactly("Content-Security-Policy: " + POLICY);
        }
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

    /**
     * The Swagger UI runs no inline script, so its policy keeps {@code script-src 'self'}; it
     * differs only in allowing the bundle's inserted style and its data: icons.
     */
    @Test
    void theSwaggerUiHasItsOwnPolicyWithScriptsFromHeraldOnly() {
        HttpResponse<String> page = get("/swagger-ui/index.html", null);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().allValues("Content-Security-Policy")).containsExactly(SWAGGER_UI_POLICY);
        assertThat(SWAGGER_UI_POLICY).contains("script-src 'self';").doesNotContain("unsafe-eval")
                .doesNotContain("script-src 'self' 'unsafe-inline'");
        assertThat(Pattern.compile("<script(?![^>]*\\bsrc=)[^>]*>", Pattern.CASE_INSENSITIVE).matcher(page.body()).find())
                .as("an inline <script> in the Swagger UI page").isFalse();
        assertThat(get("/v3/api-docs", null).headers().allValues("Content-Security-Policy")).containsExactly(POLICY);
    }

    /**
     * In a real browser: the console and the Swagger UI load and run under their policies without
     * one violation, and the Swagger UI renders the API's operations. Skipped where no Chromium is
     * installed.
     */
    @Test
    void theConsoleAndTheSwaggerUiRunInChromiumWithoutAViolation(@TempDir Path profile) throws Exception {
        Path chromium = Stream.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
                .map(Path::of).filter(Files::isExecutable).findFirst().orElse(null);
        Assumptions.assumeTrue(chromium != null, "no Chromium on this machine");
        for (String page : List.of("/console", "/swagger-ui/index.html")) {
            Path dom = profile.resolve("dom.html");
            Path log = profile.resolve("chromium.log");
            Process browser = new ProcessBuilder(chromium.toString(), "--headless=new", "--no-sandbox", "--disable-gpu",
                    "--disable-dev-shm-usage", "--no-first-run", "--user-data-dir=" + profile.resolve("profile"),
                    "--enable-logging=stderr", "--v=0", "--virtual-time-budget=8000", "--dump-dom",
                    "http://127.0.0.1:" + port + page)
                    .redirectOutput(dom.toFile()).redirectError(log.toFile()).start();
            assertThat(browser.waitFor(60, TimeUnit.SECONDS)).as("Chromium finished " + page).isTrue();
            List<String> violations = Files.readAllLines(log).stream()
                    .filter(line -> line.contains("Content Security Policy") || line.contains("Refused to"))
                    .toList();
            assertThat(violations).as(page).isEmpty();
            String rendered = Files.readString(dom);
            if (page.startsWith("/swagger-ui")) {
                assertThat(rendered).as("the Swagger UI rendered the operations").contains("opblock-summary-path")
                        .contains("/api/v1/workspaces/{ws}/publications");
            } else {
                assertThat(rendered).as("the console's script ran").contains("id=\"login\"")
                        .doesNotContain("id=\"login\" class=\"login\" hidden");
            }
        }
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
