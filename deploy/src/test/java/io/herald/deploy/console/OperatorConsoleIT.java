package io.herald.deploy.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.herald.deploy.HeraldIntegrationTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * The operator console in a real headless Chromium, on the real publishing and reconciliation
 * sagas and the provider sandbox: a publish gets a 5xx (no post created), the read-back is
 * unavailable (the read token is a user token), so the case waits for an operator. The operator
 * signs in, finds it, reads why, confirms it was not published, re-attempts it, and watches it
 * succeed.
 */
class OperatorConsoleIT extends HeraldIntegrationTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

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
        wait.until(ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", "NOT_EXECUTED"));
        wait.until(ExpectedConditions.elementToBeClickable(button("reattempt")));
        screenshot("2-not-executed");

        browser.findElement(By.id("decision-note")).sendKeys("publish it again");
        button("reattempt").click();
        try {
            new WebDriverWait(browser, Duration.ofSeconds(90)).until(
                    ExpectedConditions.attributeToBe(By.id("case-status"), "data-status", "SUCCEEDED"));
        } finally {
            screenshot("3-after-reattempt");
        }
        assertThat(browser.findElement(By.id("attempts")).getText()).contains("operator reattempt");
        assertThat(browser.findElement(By.id("reconciliations")).getText())
                .contains("checked the Page by hand: no such post");
    }

    private WebElement button(String decision) {
        return browser.findElement(By.cssSelector("[data-decision='" + decision + "']"));
    }

    private void screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        ((ChromeDriver) browser).executeScript("window.scrollTo(0, 0)");
        byte[] png = ((ChromeDriver) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(SCREENSHOTS.resolve(name + ".png"), png);
    }
}
