package io.herald.deploy.wordpress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * herald-publisher in the block editor of the real WordPress, driven in Chromium by a logged-in
 * administrator: the "Herald" panel offers the channels of the settings, a channel unticked there
 * is never queued (the choice travels with the post's own save, so there is no second request for
 * WordPress's cron to race), and the panel shows the chosen channel's state once Herald's webhook
 * has reported it. Also: the installed plugin's readme names the WordPress these tests run.
 */
class HeraldPublisherEditorLiveIT extends PublisherLiveTestBase {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "wordpress-screenshots");
    private static final String ADMIN_LOGIN = "herald-browser";

    @Test
    void thePanelChoosesTheChannelsWithThePostAndShowsTheirState() throws Exception {
        boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (!installed) {
            System.err.println("\n*** herald-publisher block editor test SKIPPED: " + CHROMIUM + " or " + CHROMEDRIVER
                    + " is missing. Install them with `sudo .ci/chromium.sh` (CI does). ***\n");
        }
        assumeTrue(installed, "the block editor test needs Chromium (install with .ci/chromium.sh); SKIPPED");
        String password = "pw-" + UUID.randomUUID();
        site.php("""
                $user = get_user_by('login', '%1$s');
                $id = $user ? $user->ID : wp_insert_user(['user_login' => '%1$s', 'user_pass' => '%2$s',
                    'user_email' => '%1$s@example.invalid', 'role' => 'administrator']);
                if (is_wp_error($id)) { echo $id->get_error_message(); exit(1); }
                wp_set_password('%2$s', $id);
                """.formatted(ADMIN_LOGIN, password));
        HttpResponse<String> draft = site.restJson("POST", "/wp/v2/posts", json.writeValueAsString(Map.of(
                "title", "Herald live panel " + page, "content", "<p>Chosen in the block editor.</p>", "status", "draft")));
        assertThat(draft.statusCode()).as(draft.body()).isEqualTo(201);
        int post = json.readTree(draft.body()).get("id").asInt();

        Path profile = Files.createTempDirectory("herald-wordpress-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1600,1200", "--user-data-dir=" + profile.toAbsolutePath());
        ChromeDriver browser = new ChromeDriver(new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build(), options);
        try {
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(60));
            browser.get(site.url() + "/wp-login.php");
            wait.until(ExpectedConditions.elementToBeClickable(By.id("user_login"))).sendKeys(ADMIN_LOGIN);
            browser.findElement(By.id("user_pass")).sendKeys(password);
            browser.findElement(By.id("wp-submit")).click();
            wait.until(ExpectedConditions.urlContains("/wp-admin/"));

            browser.get(site.url() + "/wp-admin/post.php?post=" + post + "&action=edit");
            wait.until(driver -> Boolean.TRUE.equals(((JavascriptExecutor) driver).executeScript(
                    "return !!(window.wp && wp.data && wp.data.select('core/editor')"
                            + " && wp.data.select('core/editor').getCurrentPostId() === arguments[0])", post)));
            // what a first visit shows over the editor, and the pre-publish checks, out of the way
            browser.executeScript("""
                    const editPost = wp.data.select('core/edit-post');
                    if (editPost.isFeatureActive('welcomeGuide')) { wp.data.dispatch('core/edit-post').toggleFeature('welcomeGuide'); }
                    wp.data.dispatch('core/editor').disablePublishSidebar();
                    wp.data.dispatch('core/edit-post').openGeneralSidebar('edit-post/document');
                    """);
            WebElement panel = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(".herald-publisher-panel")));
            if (!panel.getAttribute("class").contains("is-opened")) {
                panel.findElement(By.cssSelector("button.components-panel__body-toggle")).click();
            }
            WebElement facebook = wait.until(ExpectedConditions.elementToBeClickable(
                    By.cssSelector(".herald-publisher-panel input[data-channel='fb-main']")));
            WebElement linkedIn = browser.findElement(By.cssSelector(".herald-publisher-panel input[data-channel='li-main']"));
            assertThat(facebook.isSelected()).as("fb-main is offered ticked (the settings' channels)").isTrue();
            assertThat(linkedIn.isSelected()).as("li-main is offered ticked (the settings' channels)").isTrue();
            assertThat(panel.getText()).contains("Not shared yet.");
            linkedIn.click();
            wait.until(driver -> !linkedIn.isSelected());
            screenshot(browser, "panel-before-publish");

            browser.findElement(By.cssSelector("button.editor-post-publish-button")).click();
            wait.until(driver -> Boolean.TRUE.equals(((JavascriptExecutor) driver).executeScript(
                    "const e = wp.data.select('core/editor');"
                            + " return e.isCurrentPostPublished() && !e.isSavingPost() && !e.isEditedPostDirty();")));
            @SuppressWarnings("unchecked")
            List<String> requests = (List<String>) browser.executeScript(
                    "return performance.getEntriesByType('resource').map(r => r.name)"
                            + ".filter(n => n.includes('/wp/v2/posts/' + arguments[0]) || n.includes('meta-box-loader'));", post);
            System.out.printf("herald-publisher block editor: requests of the save %s%n", requests);
            assertThat(requests).as("the post's save").anyMatch(name -> name.contains("/wp/v2/posts/" + post));
            assertThat(requests).as("no meta box saved in a second request").noneMatch(name -> name.contains("meta-box-loader"));

            // before any dispatch: only the chosen channel was ever queued, with the choice stored as meta
            List<JsonNode> records = site.records(post);
            assertThat(records).extracting(r -> r.get("channel_id").asText() + " " + r.get("action").asText())
                    .containsExactly("fb-main publish");
            assertThat(site.php("echo wp_json_encode(get_post_meta(" + post + ", '_herald_publisher_channels', true));"))
                    .isEqualTo("[\"fb-main\"]");

            // the choice is the editor's business: the public REST view of the post does not show it
            HttpResponse<String> anonymous = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(site.url() + "/?rest_route=/wp/v2/posts/" + post)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(200);
            assertThat(json.readTree(anonymous.body()).path("meta").has("_herald_publisher_channels"))
                    .as("meta in the public view: %s", json.readTree(anonymous.body()).path("meta")).isFalse();

            site.dispatch();
            awaitSucceeded(post, "fb-main", "publish", 1);
            WebElement state = wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector(
                    ".herald-publisher-panel li[data-channel='fb-main'][data-status='SUCCEEDED']")));
            assertThat(state.getText()).isEqualTo("fb-main: published");
            assertThat(state.findElement(By.tagName("a")).getAttribute("href")).startsWith("http");
            assertThat(browser.findElements(By.cssSelector(".herald-publisher-panel li[data-channel='li-main']"))).isEmpty();
            screenshot(browser, "panel-after-publish");
            List<JsonNode> publications = heraldPublications(post);
            System.out.printf("herald-publisher block editor: post %d, %d publication(s) in Herald; the panel says \"%s\"%n",
                    post, publications.size(), state.getText());
            assertThat(publications).hasSize(1);
            assertThat(heraldPublication(publicationId(post, 1, "fb-main", "publish")).has("steps")).isTrue();
        } finally {
            browser.quit();
            try (var files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** The classic editor (here: turned on for requests that ask for it) keeps the box; the block editor has the panel only. */
    @Test
    void theClassicEditorKeepsTheBoxAndTheBlockEditorHasThePanelInstead() throws Exception {
        HttpResponse<String> draft = site.restJson("POST", "/wp/v2/posts", json.writeValueAsString(Map.of(
                "title", "Herald live classic " + page, "content", "<p>In the classic editor.</p>", "status", "draft")));
        assertThat(draft.statusCode()).as(draft.body()).isEqualTo(201);
        int post = json.readTree(draft.body()).get("id").asInt();
        // the login cookies of the editor, as wp-login.php would set them
        String cookies = site.php("""
                $user = get_user_by('login', '%s');
                $until = time() + 600;
                echo AUTH_COOKIE, '=', wp_generate_auth_cookie($user->ID, $until, 'auth'), '; ',
                    LOGGED_IN_COOKIE, '=', wp_generate_auth_cookie($user->ID, $until, 'logged_in');
                """.formatted(site.username()));
        site.php("file_put_contents(WPMU_PLUGIN_DIR . '/herald-classic-editor-test.php', \"<?php add_filter('use_block_editor_for_post',"
                + " static function (\\$use) { return isset(\\$_GET['herald-classic']) ? false : \\$use; });\");");
        try {
            String classic = editScreen(post, cookies, "&herald-classic=1");
            assertThat(classic).contains("id=\"herald-publisher\"", "name=\"herald_publisher_channels[]\" value=\"fb-main\"")
                    .doesNotContain("assets/editor-panel.js");
            String block = editScreen(post, cookies, "");
            assertThat(block).contains("assets/editor-panel.js").doesNotContain("id=\"herald-publisher\"");
        } finally {
            site.php("@unlink(WPMU_PLUGIN_DIR . '/herald-classic-editor-test.php');");
        }
    }

    private String editScreen(int post, String cookies, String query) throws Exception {
        HttpResponse<String> screen = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                        site.url() + "/wp-admin/post.php?post=" + post + "&action=edit" + query)).header("Cookie", cookies).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(screen.statusCode()).as("the edit screen%s", query).isEqualTo(200);
        return screen.body();
    }

    /** "Tested up to" is the WordPress these tests run; the release is named the same in readme, header and code. */
    @Test
    void theInstalledReadmeNamesTheWordPressTheseTestsRun() throws Exception {
        JsonNode installed = json.readTree(site.php("""
                global $wp_version;
                require_once ABSPATH . 'wp-admin/includes/plugin.php';
                $main = WP_PLUGIN_DIR . '/herald-publisher/herald-publisher.php';
                echo wp_json_encode(['wordpress' => $wp_version,
                    'readme' => file_get_contents(WP_PLUGIN_DIR . '/herald-publisher/readme.txt'),
                    'header' => get_plugin_data($main, false, false), 'constant' => HERALD_PUBLISHER_VERSION]);
                """));
        String wordpress = installed.get("wordpress").asText();
        String readme = installed.get("readme").asText();
        JsonNode header = installed.get("header");
        Matcher release = Pattern.compile("^(\\d+\\.\\d+)").matcher(wordpress);
        assertThat(release.find()).as("WordPress version %s", wordpress).isTrue();
        System.out.printf("herald-publisher readme: Tested up to %s, WordPress %s; Stable tag %s%n",
                field(readme, "Tested up to"), wordpress, field(readme, "Stable tag"));
        assertThat(field(readme, "Tested up to")).isEqualTo(release.group(1));
        assertThat(field(readme, "Stable tag")).isEqualTo(header.get("Version").asText())
                .isEqualTo(installed.get("constant").asText());
        assertThat(field(readme, "Requires PHP")).isEqualTo(header.get("RequiresPHP").asText());
        assertThat(field(readme, "Requires at least")).isEqualTo(header.get("RequiresWP").asText());
    }

    private static String field(String readme, String name) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + ":\\s*(\\S+)\\s*$").matcher(readme);
        assertThat(m.find()).as("readme.txt has \"%s:\"", name).isTrue();
        return m.group(1);
    }

    private static void screenshot(ChromeDriver browser, String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Object shot = browser.executeCdpCommand("Page.captureScreenshot", Map.of("format", "png")).get("data");
        Files.write(SCREENSHOTS.resolve(name + ".png"), Base64.getDecoder().decode((String) shot));
    }
}
