package io.herald.deploy.console;

import static io.herald.deploy.console.ConsolePageChecks.chartsFitTheirBoxes;
import static io.herald.deploy.console.ConsolePageChecks.overflowing;
import static io.herald.deploy.console.ConsolePageChecks.pixelsOf;
import static io.herald.deploy.console.ConsolePageChecks.pointsDrawn;
import static io.herald.deploy.console.ConsolePageChecks.unlabelled;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.webhooks.WebhookReceiver;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console as an operator opens it in the morning, on a workspace seeded through the real API
 * and the provider sandbox with a few hundred publications of every outcome the sandbox can cause
 * (succeeded, refused as invalid, unknown after a 5xx): at 390, 1024 and 1600 px wide the
 * overview's charts draw their points, nothing spills out of its card, every control has a label,
 * a filtered list comes from a shareable URL, and the keyboard reaches the decisions, which say
 * what they will do before they do it.
 *
 * <p>The page's fetch is handed a held connection's fields ({@code status}, {@code tokenExpiresAt},
 * {@code heldPublications}) and a case with every kind of step, in the API's shapes, so the
 * screenshots show the banner and all steps; ConnectionHealthIT and PublicationStepsIT check that
 * the API really answers with them.
 */
class ConsoleOverviewIT extends HeraldIntegrationTest {

    private static final int SUCCEEDED = 200;
    private static final int FAILED = 50;
    private static final int UNKNOWN = 50;
    private static final int[] WIDTHS = {390, 1024, 1600};

    @Test
    void theOverviewFitsEveryWidthDrawsItsChartsAndTheKeyboardReachesTheDecisions() throws Exception {
        String ws = newWorkspace("overview");
        String page = "8" + (System.nanoTime() % 1_000_000_000L);
        String pubs = "/api/v1/workspaces/" + ws + "/publications";
        connect(ws, page);
        seed(ws, page, "ok", SUCCEEDED, null);
        seed(ws, page, "refused", FAILED, "VALIDATION_ERROR");
        // the calendar's receiver is down for ten minutes: its deliveries about unknown outcomes wait,
        // answered 503, and are still waiting when the console shows them however slow the machine
        // (the tests' retry schedule alone is used up in about 20 s)
        WebhookReceiver receiver = new WebhookReceiver();
        receiver.answer(new WebhookReceiver.Answer(503, 0, null, "600"));
        receiver.start();
        Response hook = send("PUT", "/api/v1/workspaces/" + ws + "/webhooks/calendar", "{\"url\":\""
                + receiver.url("/hooks") + "\",\"events\":[\"publication.outcome_unknown\"]}");
        assertThat(hook.status()).as(hook.toString()).isEqualTo(201);
        List<String> unknown = seed(ws, page, "unknown", UNKNOWN, "ERROR_5XX_NO_EFFECT");
        JsonNode stats = awaitSettled(ws);
        assertThat(stats.toString()).contains("\"answers\"");
        String mediaId = uploadImage(ws);
        String caseId = unknown.get(0);

        try (ConsoleBrowser console = ConsoleBrowser.start(); AutoCloseable stop = receiver::stop) {
            ChromeDriver browser = console.driver();
            console.beforeEveryPage(LATER_FIELDS.formatted(mediaId, caseId));
            browser.get(uri("/console?ws=" + ws + "&pub=" + caseId).toString());
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
            wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("api-key"))).sendKeys(keyFor(pubs));
            browser.findElement(By.cssSelector("#login-form button[type=submit]")).click();
            wait.until(ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", "OUTCOME_UNKNOWN"));

            for (int width : WIDTHS) {
                console.width(width);
                wait.until(d -> pointsDrawn(browser, "chart-outcomes") > 0 && pointsDrawn(browser, "chart-open") > 0);
                // a resize is followed by the charts a frame later
                wait.until(d -> chartsFitTheirBoxes(browser));
                assertThat(pixelsOf(browser, "chart-outcomes", 26, 127, 55)).as("succeeded points at %d px", width)
                        .isPositive();
                assertThat(pixelsOf(browser, "chart-open", 11, 92, 173)).as("open-case line at %d px", width)
                        .isPositive();
                wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#steps canvas[data-drawn=true]")));
                assertThat(overflowing(browser)).as("elements outside their card at %d px", width).isEmpty();
                assertThat(unlabelled(browser)).as("controls without a label at %d px", width).isEmpty();
                console.screenshot("overview-" + width);
            }
            assertThat(layoutAcrossTwoRefreshes(browser, wait)).as("boxes before and after two refreshes")
                    .satisfies(boxes -> assertThat(boxes.get(1)).isEqualTo(boxes.get(0)));
            String outcomes = browser.findElement(By.id("summary-outcomes")).getText();
            assertThat(outcomes).contains(SUCCEEDED + " succeeded").contains(FAILED + " failed")
                    .contains(UNKNOWN + " outcome unknown");
            assertThat(browser.findElements(By.cssSelector("#answer-times tr[data-channel-id='fb-main']"))).hasSize(1);

            // the channels table names the type by its label and the retry safety in words
            WebElement row = browser.findElement(By.cssSelector("#channels tr[data-channel-id='fb-main']"));
            assertThat(row.findElement(By.cssSelector("[data-channel-type='facebook']")).getText()).contains("Facebook");
            assertThat(row.findElement(By.cssSelector("[data-retry-safety] .badge")).getText())
                    .isIn("read back", "operator");

            // the held connection's banner links to its held publications
            WebElement banner = browser.findElement(By.cssSelector("#attention .banner[data-channel-id='fb-main']"));
            assertThat(banner.getText()).contains("needs new credentials").contains("12 publications held");
            assertThat(banner.findElement(By.tagName("a")).getAttribute("href")).contains("status=HELD")
                    .contains("channelId=fb-main");

            // the case's steps: the image is drawn from Herald's own media endpoint
            assertThat(browser.findElement(By.id("steps")).getText()).contains("create post — needs a decision")
                    .contains("upload media");

            // the waiting deliveries with the receiver's last answer, and a redelivery's result beside it
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("webhooks"), "HTTP 503"));
            WebElement delivery = browser.findElement(By.cssSelector("#webhooks [data-delivery-id]"));
            assertThat(delivery.getText()).contains("PENDING").contains("publication.outcome_unknown");
            delivery.findElement(By.cssSelector("[data-redeliver]")).click();
            wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#webhooks .redeliver-result.ok")));

            // the week: one point per hour and series
            browser.findElement(By.cssSelector("input[name='stats-window'][value='7d']")).click();
            wait.until(d -> pointsDrawn(browser, "chart-outcomes") == 168 * 4);
            assertThat(browser.getCurrentUrl()).contains("window=7d");
            assertThat(browser.findElement(By.id("summary-outcomes")).getText()).startsWith("In the last 7 days");

            keyboardReachesTheDecisions(browser, wait);
            console.width(1024);
            console.screenshot("case-with-steps-1024");

            // a filtered list, opened from its URL as a shared link would be
            browser.get(uri("/console?ws=" + ws + "&status=FAILED&channelId=fb-main").toString());
            wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#found [data-status]")));
            assertThat(browser.findElements(By.cssSelector("#found [data-status]")))
                    .hasSize(20).allSatisfy(item -> assertThat(item.getAttribute("data-status")).isEqualTo("FAILED"));
            assertThat(browser.findElement(By.id("find-status")).getAttribute("value")).isEqualTo("FAILED");
            browser.findElement(By.id("find-next")).click();
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("find-page"), "Page 2"));
            assertThat(browser.getCurrentUrl()).contains("cursor=").contains("status=FAILED");
            for (int width : WIDTHS) {
                console.width(width);
                wait.until(d -> chartsFitTheirBoxes(browser));
                assertThat(overflowing(browser)).as("elements outside their card at %d px", width).isEmpty();
                console.screenshot("filtered-list-" + width);
            }
            console.width(390);
            console.viewportScreenshot("held-banner-390");
        }
    }

    /**
     * Where the page's parts are, before and after the console refreshed twice (its status line
     * says when): a refresh that brings nothing new moves nothing.
     */
    @SuppressWarnings("unchecked")
    private static List<Object> layoutAcrossTwoRefreshes(ChromeDriver browser, WebDriverWait wait) {
        String boxes = """
                return Array.prototype.map.call(document.querySelectorAll(
                    '#attention, #counts, #overview, .chart, .lists > section, #case, #steps, #decision-form, .wide-card'),
                  function (e) { var r = e.getBoundingClientRect();
                    return [e.id || e.className, Math.round(r.left), Math.round(r.top + window.scrollY),
                      Math.round(r.width), Math.round(r.height)].join(' '); });""";
        List<Object> seen = new ArrayList<>();
        // a full-page screenshot lays the page out at its whole height for a moment: start after a refresh
        awaitRefresh(browser, wait);
        seen.add(browser.executeScript(boxes));
        awaitRefresh(browser, wait);
        awaitRefresh(browser, wait);
        seen.add(browser.executeScript(boxes));
        return seen;
    }

    private static void awaitRefresh(ChromeDriver browser, WebDriverWait wait) {
        String live = browser.findElement(By.id("live")).getText();
        wait.until(d -> !browser.findElement(By.id("live")).getText().equals(live));
    }

    /** Tab from the top: the skip link, then the selected case, then a decision button. */
    private void keyboardReachesTheDecisions(ChromeDriver browser, WebDriverWait wait) {
        // a fresh load starts the keyboard at the top of the page (the key stays in the tab's session)
        browser.navigate().refresh();
        wait.until(ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", "OUTCOME_UNKNOWN"));
        Actions keys = new Actions(browser);
        keys.sendKeys(Keys.TAB).perform();
        assertThat(browser.switchTo().activeElement().getAttribute("class")).isEqualTo("skip");
        keys.sendKeys(Keys.ENTER).perform();
        String reached = null;
        for (int i = 0; i < 60 && reached == null; i++) {
            keys.sendKeys(Keys.TAB).perform();
            reached = browser.switchTo().activeElement().getAttribute("data-decision");
        }
        assertThat(reached).as("the first decision button reached by Tab").isEqualTo("confirm_published");
        // a post id typed, the decision asks first and says what it will do
        browser.findElement(By.id("post-id")).sendKeys("4711");
        browser.findElement(By.cssSelector("[data-decision='confirm_published']")).sendKeys(Keys.ENTER);
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-box")));
        assertThat(browser.findElement(By.id("confirm-text")).getText())
                .contains("no further attempt will be made").contains("4711");
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("confirm-yes");
        new Actions(browser).sendKeys(Keys.TAB).sendKeys(Keys.ENTER).perform();
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("confirm-box")));
        assertThat(browser.findElement(By.id("case-status")).getAttribute("data-status")).isEqualTo("OUTCOME_UNKNOWN");
    }

    private void connect(String ws, String page) {
        sandbox("POST", "/facebook/tokens", "{\"token\":\"EAAB-overview-page-" + page + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"PAGE\"}");
        // the read token is a user token: Herald cannot read back, so an unknown outcome waits for an operator
        sandbox("POST", "/facebook/tokens", "{\"token\":\"EAAB-overview-user-" + page + "\",\"pageId\":\"" + page
                + "\",\"kind\":\"USER\"}");
        Response channel = send("PUT", "/api/v1/workspaces/" + ws + "/channels/fb-main", "{\"type\":\"facebook\","
                + "\"pageId\":\"" + page + "\",\"pageAccessToken\":\"EAAB-overview-page-" + page + "\","
                + "\"readAccessToken\":\"EAAB-overview-user-" + page + "\"}");
        assertThat(channel.status()).as(channel.toString()).isIn(200, 201);
    }

    /** How many publications the seeds made so far. */
    private int seeded;

    /** Publishes {@code n} entries, the sandbox answering each of them with the fault (none: a success). */
    private List<String> seed(String ws, String page, String prefix, int n, String fault) {
        if (fault != null) {
            sandbox("POST", "/faults", "{\"provider\":\"facebook\",\"target\":\"" + page + "\",\"type\":\"" + fault
                    + "\",\"operation\":\"PUBLISH\",\"times\":" + n + "}");
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications", "{\"calendarEntryId\":\""
                    + prefix + "-" + i + "\",\"contentVersion\":1,\"channelId\":\"fb-main\",\"action\":\"publish\","
                    + "\"content\":{\"body\":\"overview " + prefix + " " + i + "\"}}");
            assertThat(created.status()).as(created.toString()).isEqualTo(202);
            ids.add(created.json().get("publicationId").asText());
        }
        // the next kind's fault must not meet this kind's publications: every one is in the view and settled
        seeded += n;
        int expected = seeded;
        awaitCounts(ws, c -> c.path("total").asInt() == expected
                && c.path("byStatus").path("REQUESTED").asInt() + c.path("byStatus").path("ATTEMPTING").asInt()
                + c.path("byStatus").path("RETRY_SCHEDULED").asInt() == 0);
        return ids;
    }

    private JsonNode awaitSettled(String ws) {
        JsonNode counts = awaitCounts(ws, c -> c.path("total").asInt() == SUCCEEDED + FAILED + UNKNOWN);
        assertThat(counts.path("byStatus").path("SUCCEEDED").asInt()).as(counts.toString()).isEqualTo(SUCCEEDED);
        assertThat(counts.path("byStatus").path("FAILED").asInt()).as(counts.toString()).isEqualTo(FAILED);
        assertThat(counts.path("byStatus").path("OUTCOME_UNKNOWN").asInt()).as(counts.toString()).isEqualTo(UNKNOWN);
        return awaitJson("/api/v1/workspaces/" + ws + "/stats", s -> s.path("hours").size() == 24
                && s.path("answerTimes").size() == 1);
    }

    private JsonNode awaitCounts(String ws, java.util.function.Predicate<JsonNode> until) {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = send("GET", "/api/v1/workspaces/" + ws + "/counts", null, null).json();
            if (until.test(last)) {
                return last;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new AssertionError("publications did not settle: " + last);
    }

    private String uploadImage(String ws) throws IOException {
        BufferedImage image = new BufferedImage(120, 80, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setColor(new Color(11, 92, 173));
        g.fillRect(0, 0, 120, 80);
        g.setColor(Color.WHITE);
        g.fillOval(30, 10, 60, 60);
        g.dispose();
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        ImageIO.write(image, "png", png);
        String path = "/api/v1/workspaces/" + ws + "/media";
        Response uploaded = sendBytesAs(keyFor(path), "POST", path, png.toByteArray(), "image/png", Map.of());
        assertThat(uploaded.status()).as(uploaded.toString()).isIn(200, 201);
        return uploaded.json().get("mediaId").asText();
    }

    /**
     * The fields other parts of Herald add to the channel view and the publication view, handed to
     * the page where the answer lacks them: a connection that needs new credentials with held
     * publications, and a publication's steps with its image.
     */
    private static final String LATER_FIELDS = """
            (function () {
              var realFetch = window.fetch;
              var mediaId = '%s';
              var caseId = '%s';
              function json(value, response) {
                return new Response(JSON.stringify(value), { status: response.status,
                  headers: { 'Content-Type': 'application/json' } });
              }
              window.fetch = function (input, init) {
                var path = (typeof input === 'string' ? input : input.url).split('?')[0];
                return realFetch.apply(this, arguments).then(function (response) {
                  if (!response.ok) { return response; }
                  if (/\\/channels$/.test(path)) {
                    return response.clone().json().then(function (channels) {
                      channels.forEach(function (c) {
                        // the banner of a connection that lost its credentials, with a held count
                        if (c.channelId === 'fb-main') {
                          c.status = 'NEEDS_REAUTH';
                          c.statusReason = 'Facebook refused the Page token (code 190): it was revoked.';
                          c.tokenExpiresAt = new Date(Date.now() + 2 * 86400000).toISOString();
                          c.heldPublications = 12;
                        }
                      });
                      return json(channels, response);
                    });
                  }
                  if (path.endsWith('/publications/' + caseId)) {
                    return response.clone().json().then(function (view) {
                      // a fixed plan of every kind of step, so the case shows them all
                      {
                        view.steps = [
                          { step: 'upload_media', status: 'SUCCEEDED', attempts: 1, providerRef: { id: '90210', url: null },
                            detail: null, mediaId: mediaId },
                          { step: 'create_post', status: 'OUTCOME_UNKNOWN', attempts: 1, providerRef: null,
                            detail: 'the provider answered 500; the post may or may not exist', mediaId: null },
                          { step: 'first_comment', status: 'PENDING', attempts: 0, providerRef: null, detail: null,
                            mediaId: null }];
                        view.decisionStep = 'create_post';
                      }
                      return json(view, response);
                    });
                  }
                  return response;
                });
              };
            })();""";
}
