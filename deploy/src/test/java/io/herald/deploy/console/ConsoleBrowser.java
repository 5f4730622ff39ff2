package io.herald.deploy.console;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Comparator;
import java.util.Map;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/** A headless Chromium for the console's browser tests, at a chosen viewport width. */
final class ConsoleBrowser implements AutoCloseable {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");

    private final ChromeDriver driver;
    private final Path profile;

    private ConsoleBrowser(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /** Skips the test (with a loud line) where Chromium is not installed: CI installs it with .ci/chromium.sh. */
    static ConsoleBrowser start() throws IOException {
        boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        if (!installed) {
            System.err.println("\n*** console browser test SKIPPED: " + CHROMIUM + " or " + CHROMEDRIVER
                    + " is missing. Install them with `sudo .ci/chromium.sh` (CI does). ***\n");
        }
        assumeTrue(installed, "the console's browser test needs Chromium (install with .ci/chromium.sh); SKIPPED");
        Path profile = Files.createTempDirectory("herald-console-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1600,1200", "--user-data-dir=" + profile.toAbsolutePath());
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        return new ConsoleBrowser(new ChromeDriver(service, options), profile);
    }

    ChromeDriver driver() {
        return driver;
    }

    /** The viewport as a device of that width would have it (a phone at 390, a laptop at 1024…). */
    void width(int width) {
        driver.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of("width", width, "height", 900,
                "deviceScaleFactor", 1, "mobile", width < 600));
    }

    /** Runs before any script of every page loaded from now on. */
    void beforeEveryPage(String script) {
        driver.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", script));
    }

    /** The whole page, not only what the viewport shows. */
    void screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Object shot = driver.executeCdpCommand("Page.captureScreenshot",
                Map.of("format", "png", "captureBeyondViewport", true)).get("data");
        Files.write(SCREENSHOTS.resolve(name + ".png"), Base64.getDecoder().decode((String) shot));
    }

    /** What a phone shows first, without scrolling. */
    void viewportScreenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        driver.executeScript("window.scrollTo(0, 0)");
        Object shot = driver.executeCdpCommand("Page.captureScreenshot", Map.of("format", "png")).get("data");
        Files.write(SCREENSHOTS.resolve(name + ".png"), Base64.getDecoder().decode((String) shot));
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
