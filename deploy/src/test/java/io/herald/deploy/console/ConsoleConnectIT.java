package io.herald.deploy.console;

import static io.herald.deploy.console.ConsolePageChecks.overflowing;
import static io.herald.deploy.console.ConsolePageChecks.unlabelled;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.deploy.HeraldIntegrationTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * An admin connects a Facebook Page and a Threads profile from the console, at 390 and at 1600 px:
 * the "Connect a channel" panel's Facebook button goes to the provider's dialog (the sandbox's,
 * approving), the browser comes back to the console with the Pages to choose among, and the chosen
 * one is a connection in the channels table (a declined dialog first: the console says the user
 * declined). When the Page's token is then revoked, its channel's banner (NEEDS_REAUTH, a
 * publication held) offers "Reconnect", which goes through the same dialog and choice and lets the
 * held publication go out. The Threads button connects the demo's profile at
 * once (no choice), and its "Reconnect" after a revoked token lets its held publication go out too.
 * The panel is drawn from the server's channel types: Mastodon asks for its instance and Facebook
 * for nothing, and a Bluesky account is connected with its form (no provider to go to).
 * Nothing spills out of its card, every control has a label.
 */
class ConsoleConnectIT extends HeraldIntegrationTest {

    @Test
    void anAdminConnectsAFacebookPageFromTheConsoleAtEveryWidth() throws Exception {
        try (ConsoleBrowser console = ConsoleBrowser.start()) {
            ChromeDriver browser = console.driver();
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
            boolean signedIn = false;
            for (int width : new int[] {390, 1600}) {
                String ws = newWorkspace("console-connect");
                String key = keyFor("/api/v1/workspaces/" + ws + "/channels");
                console.width(width);
                browser.get(uri("/console?ws=" + ws).toString());
                if (!signedIn) {
                    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("api-key"))).sendKeys(key);
                    browser.findElement(By.cssSelector("#login-form button[type=submit]")).click();
                    signedIn = true;
                } else {
                    browser.executeScript("sessionStorage.setItem('herald.apiKey', arguments[0]); location.reload();",
                            key);
                }
                wait.until(ExpectedConditions.visibilityOfElementLocated(
                        By.cssSelector("#connect-buttons [data-connect-type='facebook']")));
                assertThat(overflowing(browser)).as("elements outside their card at %d px", width).isEmpty();
                assertThat(unlabelled(browser)).as("controls without a label at %d px", width).isEmpty();

                // the user declines at Facebook's dialog: back in the console, which says so; nothing stored
                browser.findElement(By.id("connect-channel-id")).sendKeys("fb-console");
                sandbox("POST", "/facebook/login", "{\"declines\":true}");
                try {
                    browser.findElement(By.cssSelector("#connect-buttons [data-connect-type='facebook']")).click();
                    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("connect-result"),
                            "declined"));
                } finally {
                    sandbox("POST", "/facebook/login", "{\"declines\":false}");
                }
                assertThat(browser.getCurrentUrl()).contains("/console?ws=" + ws).doesNotContain("#connect");
                assertThat(jdbc.queryForObject("SELECT count(*) FROM channel_connection WHERE workspace_id = ?",
                        Long.class, ws)).isZero();

                int issuedBefore = issuedTokens().size();
                browser.findElement(By.id("connect-channel-id")).clear();
                browser.findElement(By.id("connect-channel-id")).sendKeys("fb-console");
                browser.findElement(By.cssSelector("#connect-buttons [data-connect-type='facebook']")).click();
                wait.until(ExpectedConditions.visibilityOfElementLocated(
                        By.cssSelector("#connect-choices [data-choice='100200300400600']")));
                assertThat(browser.getCurrentUrl()).contains("/console?ws=" + ws).doesNotContain("#connect");
                assertThat(browser.findElement(By.id("connect-choices")).getText()).contains("Herald Second Page")
                        .contains("Herald Demo Page");
                assertThat(overflowing(browser)).as("choices outside their card at %d px", width).isEmpty();
                console.screenshot("connect-choice-" + width);

                browser.findElement(By.cssSelector("#connect-choices [data-choice='100200300400600']")).click();
                wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("connect-result"),
                        "fb-console is connected"));
                wait.until(ExpectedConditions.presenceOfElementLocated(
                        By.cssSelector("#channels tr[data-channel-id='fb-console']")));
                console.screenshot("connect-done-" + width);
                assertThat(jdbc.queryForObject("SELECT count(*) FROM channel_connection WHERE workspace_id = ?"
                        + " AND channel_id = 'fb-console'", Long.class, ws)).isEqualTo(1);

                // the user revokes Herald's access: the next publication is held, the channel needs reconnecting
                List<String> tokens = issuedTokens();
                tokens.subList(issuedBefore, tokens.size()).forEach(token -> sandbox("POST", "/lapses",
                        "{\"provider\":\"facebook\",\"credential\":\"" + token
                                + "\",\"afterPosts\":0,\"kind\":\"REVOKED\"}"));
                // a text of its own: the Page refuses the same text twice in a row
                Response published = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                        "{\"calendarEntryId\":\"entry-reconnect\",\"contentVersion\":1,\"channelId\":\"fb-console\","
                                + "\"action\":\"publish\",\"content\":{\"body\":\"Held until " + ws
                                + " is reconnected\"}}");
                assertThat(published.status()).as(published.toString()).isEqualTo(202);
                String publication = "/api/v1/workspaces/" + ws + "/publications/"
                        + published.json().get("publicationId").asText();
                awaitJson(publication, v -> v.get("status").asText().equals("HELD"));
                awaitJson("/api/v1/workspaces/" + ws + "/channels",
                        v -> v.path(0).path("status").asText().equals("NEEDS_REAUTH"));

                browser.navigate().refresh();
                wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("[data-reconnect='fb-console']")));
                assertThat(overflowing(browser)).as("banner outside its card at %d px", width).isEmpty();
                assertThat(unlabelled(browser)).as("controls without a label at %d px", width).isEmpty();
                console.screenshot("connect-reconnect-" + width);
                browser.findElement(By.cssSelector("[data-reconnect='fb-console']")).click();
                wait.until(ExpectedConditions.elementToBeClickable(
                        By.cssSelector("#connect-choices [data-choice='100200300400600']"))).click();
                wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("connect-result"),
                        "fb-console is connected"));
                awaitJson(publication, v -> v.get("status").asText().equals("SUCCEEDED"));
                awaitJson("/api/v1/workspaces/" + ws + "/channels", v -> v.path(0).path("status").asText()
                        .equals("ACTIVE") && v.path(0).path("heldPublications").asInt() == 0);

                connectAndReconnectAThreadsProfile(console, wait, ws, width);
                connectABlueskyAccountWithItsForm(console, wait, ws, width);
            }
        }
    }

    /**
     * The Threads button connects the demo's profile at once (one profile, no choice); its token
     * revoked, the banner's "Reconnect" goes through Threads' consent again and the held publication
     * goes out.
     */
    private void connectAndReconnectAThreadsProfile(ConsoleBrowser console, WebDriverWait wait, String ws, int width)
            throws Exception {
        ChromeDriver browser = console.driver();
        int issuedBefore = issuedTokens("threads").size();
        browser.findElement(By.id("connect-channel-id")).clear();
        browser.findElement(By.id("connect-channel-id")).sendKeys("threads-console");
        browser.findElement(By.cssSelector("#connect-buttons [data-connect-type='threads']")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("connect-result"),
                "threads-console is connected (Threads)"));
        assertThat(browser.getCurrentUrl()).contains("/console?ws=" + ws).doesNotContain("#connect");
        wait.until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#channels tr[data-channel-id='threads-console']")));
        assertThat(overflowing(browser)).as("connected Threads profile outside its card at %d px", width).isEmpty();

        List<String> tokens = issuedTokens("threads");
        tokens.subList(issuedBefore, tokens.size()).forEach(token -> sandbox("POST", "/threads/tokens/revoke",
                "{\"token\":\"" + token + "\"}"));
        Response published = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                "{\"calendarEntryId\":\"entry-threads-reconnect\",\"contentVersion\":1,"
                        + "\"channelId\":\"threads-console\",\"action\":\"publish\",\"content\":{\"body\":"
                        + "\"Held until the Threads profile of " + ws + " is reconnected\"}}");
        assertThat(published.status()).as(published.toString()).isEqualTo(202);
        String publication = "/api/v1/workspaces/" + ws + "/publications/"
                + published.json().get("publicationId").asText();
        awaitJson(publication, v -> v.get("status").asText().equals("HELD"));

        browser.navigate().refresh();
        wait.until(ExpectedConditions.elementToBeClickable(By.cssSelector("[data-reconnect='threads-console']")));
        console.screenshot("connect-reconnect-threads-" + width);
        browser.findElement(By.cssSelector("[data-reconnect='threads-console']")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("connect-result"),
                "threads-console is connected (Threads)"));
        awaitJson(publication, v -> v.get("status").asText().equals("SUCCEEDED"));
    }

    /**
     * The panel is the server's list of types: Mastodon's group asks for its instance and
     * Facebook's asks for nothing; WordPress and Bluesky have no button that goes to a provider but
     * one that opens their form. Bluesky's form (its app password a password field) PUTs the
     * connection to the sandbox's PDS, and the account is a connection in the channels table.
     */
    private void connectABlueskyAccountWithItsForm(ConsoleBrowser console, WebDriverWait wait, String ws, int width)
            throws Exception {
        ChromeDriver browser = console.driver();
        wait.until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("[data-type-group='mastodon'] input[name='instanceUrl']")));
        assertThat(browser.findElements(By.cssSelector("#connect-buttons input[name='instanceUrl']"))).hasSize(1);
        assertThat(browser.findElement(By.cssSelector("label[for='connect-start-mastodon-instanceUrl']")).getText())
                .isEqualTo("Mastodon instance");
        assertThat(browser.findElements(By.cssSelector("[data-type-group='facebook'] input"))).isEmpty();
        assertThat(browser.findElements(By.cssSelector("[data-type-group='facebook'] [data-connect-type='facebook']")))
                .hasSize(1);
        for (String form : new String[] {"wordpress", "bluesky"}) {
            assertThat(browser.findElements(By.cssSelector("[data-connect-type='" + form + "']"))).as(form).isEmpty();
            assertThat(browser.findElements(By.cssSelector("[data-form-type='" + form + "']"))).as(form).hasSize(1);
        }
        assertThat(browser.findElements(By.cssSelector("[data-connect-type]"))).hasSize(5);
        assertThat(browser.findElements(By.cssSelector("[data-connect-type]:disabled"))).isEmpty();

        String handle = "console" + width + "-" + System.nanoTime() % 100_000 + ".bsky.test";
        String appPassword = "bsky-console-app-password";
        sandbox("POST", "/bluesky/accounts", "{\"handle\":\"" + handle + "\",\"appPassword\":\"" + appPassword
                + "\"}");
        browser.findElement(By.id("connect-channel-id")).clear();
        browser.findElement(By.id("connect-channel-id")).sendKeys("bsky-console");
        browser.findElement(By.cssSelector("[data-form-type='bluesky']")).click();
        wait.until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#connect-form[data-form-for='bluesky'] [data-field='handle']"))).sendKeys(handle);
        assertThat(browser.findElements(By.cssSelector("#connect-form [data-field='instanceUrl']"))).isEmpty();
        assertThat(browser.findElement(By.cssSelector("#connect-form [data-field='appPassword']"))
                .getDomAttribute("type")).isEqualTo("password");
        assertThat(browser.findElement(By.cssSelector("#connect-form .connect-guide")).getText())
                .contains("app password");
        browser.findElement(By.cssSelector("#connect-form [data-field='appPassword']")).sendKeys(appPassword);
        browser.findElement(By.cssSelector("#connect-form [data-field='pdsUrl']"))
                .sendKeys("http://localhost:" + port + "/sandbox/bluesky");
        assertThat(overflowing(browser)).as("the Bluesky form outside its card at %d px", width).isEmpty();
        assertThat(unlabelled(browser)).as("controls without a label at %d px", width).isEmpty();
        console.screenshot("connect-form-bluesky-" + width);
        browser.findElement(By.cssSelector("[data-form-submit='bluesky']")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("connect-result"),
                "bsky-console is connected (Bluesky)"));
        wait.until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#channels tr[data-channel-id='bsky-console']")));
        assertThat(browser.findElement(By.id("connect-form")).isDisplayed()).isFalse();
        JsonNode channels = awaitJson("/api/v1/workspaces/" + ws + "/channels", v -> {
            for (JsonNode c : v) {
                if (c.path("channelId").asText().equals("bsky-console")) {
                    return true;
                }
            }
            return false;
        });
        JsonNode bluesky = null;
        for (JsonNode c : channels) {
            if (c.path("channelId").asText().equals("bsky-console")) {
                bluesky = c;
            }
        }
        assertThat(bluesky.path("type").asText()).isEqualTo("bluesky");
        assertThat(bluesky.path("settings").path("handle").asText()).isEqualTo(handle);
        assertThat(bluesky.path("capabilities").path("publish").path("available").asBoolean()).as(bluesky.toString())
                .isTrue();
        assertThat(channels.toString()).doesNotContain(appPassword);
        assertThat(browser.getPageSource()).doesNotContain(appPassword);
    }

    /** The tokens the sandbox's Facebook Login handed out so far, oldest first. */
    private List<String> issuedTokens() {
        return issuedTokens("facebook");
    }

    /** The tokens the sandbox's OAuth server of {@code provider} handed out so far, oldest first. */
    private List<String> issuedTokens(String provider) {
        List<String> tokens = new ArrayList<>();
        for (JsonNode issued : send("GET", "/sandbox/_admin/oauth/issued?provider=" + provider, null, null).json()
                .get("issued")) {
            if (issued.get("kind").asText().equals("token")) {
                tokens.add(issued.get("value").asText());
            }
        }
        return tokens;
    }
}
