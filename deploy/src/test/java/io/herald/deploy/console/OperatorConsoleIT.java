package io.herald.deploy.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.herald.deploy.HeraldIntegrationTest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The operator console in a real headless Chromium, on the real publishing core (dispatcher,
 * timer rows, read-backs) and the provider sandbox: a publish gets a 5xx (no post created), the read-back is
 * unavailable (the read token is a user token), so the case waits for an operator. The operator
 * signs in, finds it, reads why, confirms it was not published, re-attempts it, and watches it
 * succeed; one step back on the timeline shows the case as it stood before its last event, "Later ▶"
 * moves forward again one event at a time, and the decision form is hidden while a past state is shown. And
 * the console stays unscriptable: a post URL that is not http(s) — from a provider,
 * from an operator's decision, or in any view the page is handed — is shown as text, never as a
 * link, and the page carries its Content-Security-Policy.
 */
class OperatorConsoleIT extends HeraldIntegrationTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    private static final String HOSTILE_URL = "javascript:alert(document.domain)";

    /** The issue's policy (docs/architecture.md#outbound-safety): each directive must be in the header. */
    private static final List<String> CSP_DIRECTIVES = List.of("default-src 'self'", "script-src 'self'",
            "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'");

    private WebDriver browser;
    private Path profile;

    @BeforeEach
    void startBrowser() throws IOException {
        boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (!installed) {
            System.err.println("\n*** OperatorConsoleIT SKIPPED: " + CHROMIUM + " or " + CHROMEDRIVER
                    + " is missing. Install them with `sudo .ci/chromium.sh` (CI does). ***\n");
        }
        assumeTrue(installed, "the operator console's browser test needs " + CHROMIUM + " and " + CHROMEDRIVER
                + " (install with .ci/chromium.sh); SKIPPED");
        profile = Files.createTempDirectory("herald-console-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1440,1600", "--user-data-dir=" + profile.toAbsolutePath());
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(service, options);
    }

    @AfterEach
    void stopBrowser() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Test
    void anOperatorSettlesAnUnknownOutcomeAndTheReattemptSucceeds() throws IOException {
        String ws = newWorkspace("console");
        String page = "7" + (System.nanoTime() % 1_000_000_000L);
        // publishing works with the Page token; the read token is a user token, so Herald cannot read back
        sandbox("POST", "/facebook/tokens", "{\"token\":\"EAAB-console-page-" + page + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        sandbox("POST", "/facebook/tokens", "{\"token\":\"EAAB-console-user-" + page + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"USER\"}");
        Response channel = send("PUT", "/api/v1/workspaces/" + ws + "/channels/fb-main", "{\"type\":\"facebook\","
                + "\"pageId\":\"" + page + "\",\"pageAccessToken\":\"EAAB-console-page-" + page + "\","
                + "\"readAccessToken\":\"EAAB-console-user-" + page + "\"}");
        assertThat(channel.status()).as(channel.toString()).isIn(200, 201);
        // the first publish gets a 5xx and creates nothing: Herald cannot know that, so the outcome is unknown
        sandbox("POST", "/faults", "{\"provider\":\"facebook\",\"target\":\"" + page + "\",\"type\":\"ERROR_5XX_NO_EFFECT\","
                + "\"operation\":\"PUBLISH\",\"times\":1}");
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications", """
                {"calendarEntryId":"launch-post","contentVersion":2,"channelId":"fb-main","action":"publish",
                 "content":{"body":"Our launch is live","link":"https://example.org/launch"}}""");
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        String id = created.json().get("publicationId").asText();
        awaitJson("/api/v1/workspaces/" + ws + "/publications/" + id, v -> v.get("needsDecision").asBoolean());
        String operatorKey = keyFor("/api/v1/workspaces/" + ws);

        browser.get(uri("/console?ws=" + ws).toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        // a key Herald does not know is answered 401, and the console asks again
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("api-key"))).sendKeys("hk.not-a-key");
        browser.findElement(By.cssSelector("#login-form button[type=submit]")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("login-error"), "401"));
        assertThat(browser.findElement(By.id("app")).isDisplayed()).isFalse();

        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("api-key"))).sendKeys(operatorKey);
        browser.findElement(By.cssSelector("#login-form button[type=submit]")).click();

        By item = By.cssSelector("#queue [data-publication-id='" + id + "'][data-status='OUTCOME_UNKNOWN']");
        wait.until(ExpectedConditions.elementToBeClickable(item)).click();
        wait.until(ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", "OUTCOME_UNKNOWN"));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("timeline"), "OutcomeUnknown"));
        String reason = browser.findElement(By.id("decision-reason")).getText();
        assertThat(reason).contains("Page Access Token");
        assertThat(browser.findElement(By.id("attempts")).getText()).contains("OUTCOME UNKNOWN").contains("SERVER_ERROR");
        assertThat(button("reattempt").isEnabled()).as("re-attempt is refused while the outcome is unknown").isFalse();
        screenshot("1-outcome-unknown");

        browser.findElement(By.id("decision-note")).sendKeys("checked the Page by hand: no such post");
        button("confirm_not_published").click();
        confirmDecision("no post");
        wait.until(ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", "NOT_EXECUTED"));
        wait.until(ExpectedConditions.elementToBeClickable(button("reattempt")));
        screenshot("2-not-executed");

        browser.findElement(By.id("decision-note")).sendKeys("publish it again");
        button("reattempt").click();
        confirmDecision("again now");
        try {
            new WebDriverWait(browser, Duration.ofSeconds(90)).until(
                    ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", "SUCCEEDED"));
        } finally {
            screenshot("3-after-reattempt");
        }
        assertThat(browser.findElement(By.id("attempts")).getText()).contains("operator reattempt");
        assertThat(browser.findElement(By.id("reconciliations")).getText())
                .contains("checked the Page by hand: no such post");

        // one step back on the timeline: the case as it stood before its last event, as the API reads it asOf then
        String casePath = "/api/v1/workspaces/" + ws + "/publications/" + id;
        JsonNode events = send("GET", casePath + "/events", null, null).json();
        JsonNode earlier = events.get(events.size() - 2);
        JsonNode then = send("GET", casePath + "?asOf=" + earlier.get("timestamp").asText(), null, null).json();
        assertThat(then.get("status").asText()).isNotEqualTo("SUCCEEDED");
        wait.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#timeline > li"), events.size()));
        wait.until(ExpectedConditions.elementToBeClickable(By.id("step-back"))).click();
        wait.until(ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", then.get("status").asText()));
        assertThat(browser.findElement(By.id("step-label")).getText())
                .contains("as it stood after #" + earlier.get("sequence").asLong());
        assertThat(browser.findElement(By.id("case-body")).getAttribute("class")).contains("as-of");
        assertThat(browser.findElements(By.cssSelector("#timeline > .later"))).hasSize(1);
        screenshot("4-one-event-back");
        assertThat(browser.findElement(By.id("decision-form")).isDisplayed())
                .as("no decision form while a past state is shown: a decision acts on the case as it is now").isFalse();

        // a second step back, then "Later ▶" forward again: one event at a time, the form hidden until now
        JsonNode twoBack = events.get(events.size() - 3);
        browser.findElement(By.id("step-back")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("step-label"),
                "after #" + twoBack.get("sequence").asLong() + " ("));
        assertThat(browser.findElements(By.cssSelector("#timeline > .later"))).hasSize(2);
        browser.findElement(By.id("step-forward")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("step-label"),
                "after #" + earlier.get("sequence").asLong() + " ("));
        wait.until(ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", then.get("status").asText()));
        assertThat(browser.findElements(By.cssSelector("#timeline > .later"))).hasSize(1);
        assertThat(browser.findElement(By.id("case-body")).getAttribute("class")).contains("as-of");
        assertThat(browser.findElement(By.id("decision-form")).isDisplayed()).isFalse();
        browser.findElement(By.id("step-forward")).click();
        wait.until(ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", "SUCCEEDED"));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("step-label"), "as it is now"));
        assertThat(browser.findElements(By.cssSelector("#timeline > .later"))).isEmpty();
        assertThat(browser.findElement(By.id("case-body")).getAttribute("class")).doesNotContain("as-of");
        assertThat(browser.findElement(By.id("decision-form")).isDisplayed()).as("the live case can be decided").isTrue();

        // and "Now" from a past state
        browser.findElement(By.id("step-back")).click();
        wait.until(ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", then.get("status").asText()));
        browser.findElement(By.id("step-now")).click();
        wait.until(ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", "SUCCEEDED"));
        assertThat(browser.findElement(By.id("decision-form")).isDisplayed()).isTrue();
    }

    /**
     * The post stands and its first comment was refused: the publication is SUCCEEDED, yet the console
     * offers exactly the decisions the API lists for the comment (confirm published, re-attempt,
     * abandon), and a re-attempt taken there is recorded and posts the comment under the post.
     */
    @Test
    void aFailedFirstCommentIsReattemptedFromTheConsole() throws IOException {
        String ws = newWorkspace("console-comment");
        String page = "8" + (System.nanoTime() % 1_000_000_000L);
        sandbox("POST", "/facebook/tokens", "{\"token\":\"EAAB-console-cmt-" + page + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        Response channel = send("PUT", "/api/v1/workspaces/" + ws + "/channels/fb-main", "{\"type\":\"facebook\","
                + "\"pageId\":\"" + page + "\",\"pageAccessToken\":\"EAAB-console-cmt-" + page + "\"}");
        assertThat(channel.status()).as(channel.toString()).isIn(200, 201);
        sandbox("POST", "/faults", "{\"provider\":\"facebook\",\"target\":\"" + page + "\",\"type\":"
                + "\"VALIDATION_ERROR\",\"operation\":\"COMMENT\",\"times\":1}");
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications", """
                {"calendarEntryId":"comment-refused","contentVersion":1,"channelId":"fb-main","action":"publish",
                 "content":{"body":"A post whose comment is refused","firstComment":"Details below"}}""");
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        String id = created.json().get("publicationId").asText();
        String casePath = "/api/v1/workspaces/" + ws + "/publications/" + id;
        JsonNode failed = awaitJson(casePath, v -> "first_comment".equals(v.path("decisionStep").asText()));
        assertThat(failed.get("status").asText()).isEqualTo("SUCCEEDED");
        List<String> listed = new ArrayList<>();
        failed.get("allowedDecisions").forEach(d -> listed.add(d.asText()));
        assertThat(listed).containsExactlyInAnyOrder("confirm_published", "reattempt", "abandon");

        openCase(ws, id);
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        wait.until(ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", "SUCCEEDED"));
        wait.until(ExpectedConditions.elementToBeClickable(button("reattempt")));
        for (String decision : List.of("confirm_published", "confirm_not_published", "reattempt", "abandon",
                "confirm_removed", "republish")) {
            assertThat(button(decision).isEnabled()).as(decision).isEqualTo(listed.contains(decision));
        }
        assertThat(browser.findElement(By.cssSelector("#steps [data-step='first_comment']")).getText())
                .contains("needs a decision");
        screenshot("6-first-comment-failed");

        browser.findElement(By.id("decision-note")).sendKeys("the comment is fine now");
        button("reattempt").click();
        confirmDecision("again now");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("decision-message"), "Recorded"));
        JsonNode settled = awaitJson(casePath, v -> !v.get("needsDecision").asBoolean()
                && "SUCCEEDED".equals(v.get("steps").get(1).get("status").asText()));
        assertThat(settled.get("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(settled.get("steps").get(1).get("step").asText()).isEqualTo("first_comment");
        assertThat(settled.get("steps").get(1).get("attempts").asInt()).isEqualTo(2);
        assertThat(settled.get("allowedDecisions")).isEmpty();
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("decision-reason")));
        assertThat(button("reattempt").isEnabled()).isFalse();
        assertThat(button("abandon").isEnabled()).isFalse();
    }

    /**
     * On a LinkedIn connection that cannot read, a post confirmed on the operator's word alone keeps
     * its first comment waiting for a confirmation Herald can read: the console lists the case, says
     * why, offers abandon (and confirming the post again) but not re-attempt, and abandoning skips the
     * comment while the post stays.
     */
    @Test
    void aCommentWaitingOnAnUnverifiedPostIsAbandonedFromTheConsole() throws IOException {
        String ws = newWorkspace("console-unverified");
        String author = "urn:li:person:console" + (System.nanoTime() % 1_000_000_000L);
        String token = "li-console-w-" + Math.abs(author.hashCode());
        sandbox("POST", "/linkedin/tokens", "{\"token\":\"" + token + "\",\"author\":\"" + author
                + "\",\"scopes\":[\"w_member_social\"]}");
        Response channel = send("PUT", "/api/v1/workspaces/" + ws + "/channels/li", "{\"type\":\"linkedin\","
                + "\"authorUrn\":\"" + author + "\",\"accessToken\":\"" + token + "\",\"scopes\":[\"w_member_social\"]}");
        assertThat(channel.status()).as(channel.toString()).isIn(200, 201);
        Response seeded = send("POST", "/sandbox/_admin/linkedin/" + author + "/posts", "{\"text\":\"By hand\"}");
        assertThat(seeded.status()).as(seeded.toString()).isEqualTo(200);
        String own = seeded.json().get("id").asText();
        sandbox("POST", "/faults", "{\"provider\":\"linkedin\",\"target\":\"" + author + "\",\"type\":"
                + "\"RESET_AFTER_READ\",\"operation\":\"PUBLISH\"}");
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications", """
                {"calendarEntryId":"with-comment","contentVersion":1,"channelId":"li","action":"publish",
                 "content":{"body":"Posted, then confirmed by hand","firstComment":"Details below"}}""");
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        String id = created.json().get("publicationId").asText();
        String casePath = "/api/v1/workspaces/" + ws + "/publications/" + id;
        awaitJson(casePath, v -> v.get("status").asText().equals("OUTCOME_UNKNOWN") && v.get("needsDecision").asBoolean());
        Response confirmed = send("POST", casePath + "/decisions",
                "{\"decision\":\"confirm_published\",\"providerRef\":{\"id\":\"" + own + "\"}}");
        assertThat(confirmed.status()).as(confirmed.toString()).isEqualTo(200);
        awaitJson(casePath, v -> "first_comment".equals(v.path("decisionStep").asText()));

        openCase(ws, id);
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        wait.until(ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", "SUCCEEDED"));
        assertThat(browser.findElement(By.id("decision-reason")).getText())
                .contains("waits for a confirmation Herald can read");
        // the case is in the console's decision queue
        wait.until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#queue [data-publication-id='" + id + "'][data-status='SUCCEEDED']")));
        assertThat(button("abandon").isEnabled()).isTrue();
        assertThat(button("confirm_published").isEnabled()).isTrue();
        assertThat(button("reattempt").isEnabled()).as("the comment is never re-attempted on the operator's word")
                .isFalse();
        assertThat(button("confirm_not_published").isEnabled()).isFalse();
        screenshot("5-comment-waits-on-unverified-post");

        browser.findElement(By.id("decision-note")).sendKeys("this connection cannot read");
        button("abandon").click();
        confirmDecision("the post stays published");
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("decision-reason")));
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("steps"), "SKIPPED"));
        JsonNode view = send("GET", casePath, null, null).json();
        assertThat(view.get("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(view.get("needsDecision").asBoolean()).isFalse();
    }

    /**
     * A provider (a WordPress site on a real local listener) answers the post's creation with a
     * {@code javascript:} link. The case renders, the URL shows as text, and no element of the page
     * links anywhere but http(s); nor does the publication's view carry the URL.
     */
    @Test
    void aJavascriptPostUrlFromTheProviderIsNeverALink() throws IOException {
        try (HostileWordPress site = new HostileWordPress()) {
            String ws = newWorkspace("console-js-provider");
            site.connect(ws, "wp-hostile", "/publish-ok");
            String id = publishTo(ws, "wp-hostile", "js-link-entry");
            JsonNode view = awaitJson("/api/v1/workspaces/" + ws + "/publications/" + id,
                    v -> "SUCCEEDED".equals(v.path("status").asText()));

            openCase(ws, id);
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
            wait.until(ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", "SUCCEEDED"));
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("case-facts"), "Post at provider"));
            screenshot("4-provider-javascript-url");
            assertNoLinkLeavesTheWeb();

            // the data side drops a URL that is not http(s) from what a provider returns (ProviderRef)
            assertThat(view.toString().toLowerCase(Locale.ROOT)).as("the publication view")
                    .doesNotContain("javascript:");
        }
    }

    /**
     * An operator's decision cannot name a {@code javascript:} post URL (400); and when the page is
     * handed views whose post URLs are all {@code javascript:} anyway (the browser's fetch is
     * wrapped before the page loads), the console's own check is what stands between the URL and
     * a link, whatever the server keeps.
     */
    @Test
    void aJavascriptUrlInADecisionOrInAnyViewIsNeverALink() throws IOException {
        try (HostileWordPress site = new HostileWordPress()) {
            String ws = newWorkspace("console-js-decision");
            site.connect(ws, "wp-refusing", "/publish-refused");
            String id = publishTo(ws, "wp-refusing", "js-decision-entry");
            awaitJson("/api/v1/workspaces/" + ws + "/publications/" + id,
                    v -> "FAILED".equals(v.path("status").asText()));
            String decisions = "/api/v1/workspaces/" + ws + "/publications/" + id + "/decisions";
            Response hostile = send("POST", decisions, "{\"decision\":\"confirm_published\",\"providerRef\":"
                    + "{\"id\":\"4243\",\"url\":\"" + HOSTILE_URL + "\"},\"note\":\"found it by hand\"}");
            assertThat(hostile.status()).as(hostile.toString()).isEqualTo(400);
            assertThat(hostile.body()).contains("providerRef.url");
            Response decided = send("POST", decisions, "{\"decision\":\"confirm_published\",\"providerRef\":"
                    + "{\"id\":\"4243\",\"url\":\"https://blog.example.org/?p=4243\"},\"note\":\"found it by hand\"}");
            assertThat(decided.status()).as(decided.toString()).isEqualTo(200);
            awaitJson("/api/v1/workspaces/" + ws + "/publications/" + id,
                    v -> "SUCCEEDED".equals(v.path("status").asText()));

            // first as the server answers, then with every post URL of the view made hostile
            openCase(ws, id);
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
            wait.until(ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", "SUCCEEDED"));
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("reconciliations"), "found it by hand"));
            assertThat(browser.findElements(By.cssSelector("#case-facts a[href='https://blog.example.org/?p=4243']")))
                    .as("an https post URL is a link").hasSize(1);
            assertNoLinkLeavesTheWeb();

            ((ChromeDriver) browser).executeCdpCommand("Page.addScriptToEvaluateOnNewDocument",
                    Map.of("source", HOSTILE_VIEWS));
            browser.navigate().refresh();
            wait.until(ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", "SUCCEEDED"));
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("case-facts"), HOSTILE_URL));
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("reconciliations"), HOSTILE_URL));
            screenshot("5-hostile-view");
            assertNoLinkLeavesTheWeb();
            assertThat(browser.findElements(By.cssSelector("#case-facts .unlinked")))
                    .as("the hostile URL is shown as text").isNotEmpty();
        }
    }

    /** The console's page, like every answer, carries the Content-Security-Policy of the issue. */
    @Test
    void theConsolePageCarriesTheContentSecurityPolicy() throws Exception {
        HttpResponse<String> page = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(uri("/console?ws=acme")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        String policy = page.headers().firstValue("Content-Security-Policy").orElse("");
        assertThat(policy).as("Content-Security-Policy of /console").contains(CSP_DIRECTIVES);
    }

    /** Replaces every post URL in the publication views the page fetches with {@link #HOSTILE_URL}. */
    private static final String HOSTILE_VIEWS = """
            (function () {
              var realFetch = window.fetch;
              var hostile = '%s';
              window.fetch = function (input, init) {
                var url = typeof input === 'string' ? input : input.url;
                return realFetch.apply(this, arguments).then(function (response) {
                  if (!/\\/publications\\/pub_[0-9a-f]{64}$/.test(url.split('?')[0]) || !response.ok) { return response; }
                  return response.clone().json().then(function (view) {
                    view.providerRef = { id: '4243', url: hostile };
                    (view.reconciliations || []).forEach(function (r) { r.providerRef = { id: '4243', url: hostile }; });
                    return new Response(JSON.stringify(view),
                      { status: response.status, headers: { 'Content-Type': 'application/json' } });
                  });
                });
              };
            })();""".formatted(HOSTILE_URL);

    /**
     * No {@code javascript:} link anywhere in the rendered page, and every element with an
     * {@code href} or {@code src} points at http(s) (relative ones resolve against the console's).
     */
    @SuppressWarnings("unchecked")
    private void assertNoLinkLeavesTheWeb() {
        ChromeDriver chrome = (ChromeDriver) browser;
        Object scripted = chrome.executeScript("return document.querySelectorAll('a[href^=\"javascript:\" i]').length");
        assertThat(((Number) scripted).intValue()).as("javascript: links in the page").isZero();
        List<String> targets = (List<String>) chrome.executeScript("""
                var out = [];
                document.querySelectorAll('[href], [src], [action], [formaction]').forEach(function (e) {
                  ['href', 'src', 'action', 'formaction'].forEach(function (name) {
                    var raw = e.getAttribute(name);
                    if (raw === null) { return; }
                    var protocol;
                    try { protocol = new URL(raw, document.baseURI).protocol; } catch (x) { protocol = 'unparsable:'; }
                    out.push(protocol + ' ' + raw);
                  });
                });
                return out;""");
        assertThat(targets).as("link targets in the page").isNotEmpty()
                .allSatisfy(target -> assertThat(target).matches("^https?: .*"));
    }

    private String publishTo(String ws, String channel, String entry) {
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications", "{\"calendarEntryId\":\""
                + entry + "\",\"contentVersion\":1,\"channelId\":\"" + channel + "\",\"action\":\"publish\","
                + "\"content\":{\"title\":\"Launch\",\"body\":\"Our launch is live\"}}");
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        return created.json().get("publicationId").asText();
    }

    /** Opens the console on one case and signs in with an operator and auditor key of the workspace. */
    private void openCase(String ws, String publicationId) {
        String key = keyFor("/api/v1/workspaces/" + ws);
        browser.get(uri("/console?ws=" + ws + "&pub=" + publicationId).toString());
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("api-key"))).sendKeys(key);
        browser.findElement(By.cssSelector("#login-form button[type=submit]")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("case-body")));
    }

    /**
     * A WordPress site on 127.0.0.1 as Herald's adapter reads one: credentials and the mu-plugin's
     * meta key check out, and a post's creation is answered with a {@code javascript:} link (under
     * {@code /publish-ok}) or refused outright (under {@code /publish-refused}).
     */
    private final class HostileWordPress implements AutoCloseable {

        private final HttpServer server;

        HostileWordPress() throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", this::answer);
            server.start();
        }

        void connect(String ws, String channel, String sitePath) {
            String site = "http://127.0.0.1:" + server.getAddress().getPort() + sitePath;
            Response put = send("PUT", "/api/v1/workspaces/" + ws + "/channels/" + channel, "{\"type\":\"wordpress\","
                    + "\"siteUrl\":\"" + site + "\",\"username\":\"editor\",\"applicationPassword\":\"abcd efgh ijkl\"}");
            assertThat(put.status()).as(put.toString()).isIn(200, 201);
            assertThat(put.json().path("capabilities").path("publish").path("available").asBoolean())
                    .as(put.toString()).isTrue();
        }

        private void answer(HttpExchange exchange) throws IOException {
            String route = String.valueOf(exchange.getRequestURI().getQuery());
            String method = exchange.getRequestMethod();
            byte[] request = exchange.getRequestBody().readAllBytes();
            if (route.startsWith("rest_route=/wp/v2/users/me")) {
                reply(exchange, 200, "{\"id\":7,\"name\":\"editor\"}");
            } else if (route.startsWith("rest_route=/wp/v2/posts") && "OPTIONS".equals(method)) {
                reply(exchange, 200, "{\"schema\":{\"properties\":{\"meta\":{\"properties\":"
                        + "{\"herald_publication_id\":{\"type\":\"string\"}}}}},\"endpoints\":[{\"methods\":[\"GET\"],"
                        + "\"args\":{\"herald_publication_id\":{}}},{\"methods\":[\"POST\"],\"args\":{}}]}");
            } else if (route.startsWith("rest_route=/wp/v2/posts") && "POST".equals(method)) {
                if (exchange.getRequestURI().getPath().startsWith("/publish-refused")) {
                    reply(exchange, 400, "{\"code\":\"rest_invalid_param\",\"message\":\"Invalid parameter(s): status\","
                            + "\"data\":{\"status\":400,\"params\":{\"status\":\"not allowed\"}}}");
                    return;
                }
                String publicationId = json.readTree(request).path("meta").path("herald_publication_id").asText();
                reply(exchange, 201, "{\"id\":4242,\"status\":\"publish\",\"link\":\"" + HOSTILE_URL + "\","
                        + "\"meta\":{\"herald_publication_id\":\"" + publicationId + "\"}}");
            } else if (route.matches("rest_route=/wp/v2/posts/\\d+.*") && "GET".equals(method)) {
                // one post read by its id (the check of an operator's confirmation): the connection's user wrote it
                String id = route.replaceAll("rest_route=/wp/v2/posts/(\\d+).*", "$1");
                reply(exchange, 200, "{\"id\":" + id + ",\"author\":7,\"status\":\"publish\","
                        + "\"link\":\"https://blog.example.org/?p=" + id + "\"}");
            } else if (route.startsWith("rest_route=/wp/v2/posts")) {
                reply(exchange, 200, "[]");
            } else {
                reply(exchange, 404, "{\"code\":\"rest_no_route\",\"message\":\"No route\"}");
            }
        }

        private void reply(HttpExchange exchange, int status, String body) throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }

    private WebElement button(String decision) {
        return browser.findElement(By.cssSelector("[data-decision='" + decision + "']"));
    }

    /** A decision asks first and says what it will do; the operator confirms it. */
    private void confirmDecision(String effect) {
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(10));
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-box")));
        assertThat(browser.findElement(By.id("confirm-text")).getText()).contains(effect);
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("confirm-yes");
        browser.findElement(By.id("confirm-yes")).click();
    }

    private void screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        ((ChromeDriver) browser).executeScript("window.scrollTo(0, 0)");
        byte[] png = ((ChromeDriver) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(SCREENSHOTS.resolve(name + ".png"), png);
    }
}
