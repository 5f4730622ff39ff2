package io.herald.deploy.wordpress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Runs the herald-publisher plugin's PHP unit tests (Debian's phpunit) as part of the build: the
 * publication id against the test vector of docs/api.md#idempotency-key, text normalisation and cutting, v2 signing and
 * the Standard Webhooks test vector. Without phpunit on the machine it reports itself skipped.
 */
class PublisherPluginPhpUnitTest {

    private static final Path PLUGIN = Path.of("..", "wordpress", "herald-publisher");
    /** As many tests as the suite has today: fewer means tests were lost, not that they pass. */
    private static final int AT_LEAST_TESTS = 32;
    private static final Pattern TESTSUITE = Pattern.compile(
            "<testsuite name=\"herald-publisher\"[^>]*? tests=\"(\\d+)\" assertions=\"(\\d+)\" errors=\"(\\d+)\""
                    + " warnings=\"(\\d+)\" failures=\"(\\d+)\" skipped=\"(\\d+)\"");

    @Test
    void thePluginsPhpUnitTestsPass() throws Exception {
        Optional<Path> phpunit = phpunit();
        if (phpunit.isEmpty()) {
            String message = "herald-publisher PHP unit tests SKIPPED: phpunit not found on PATH. Run `.ci/wordpress.sh`"
                    + " as root (it installs Debian's phpunit), or `apt-get install php-cli phpunit`.";
            new PrintStream(new FileOutputStream(FileDescriptor.err), true).println(message);
            assumeTrue(false, message);
        }
        Path report = Files.createTempFile("herald-publisher-phpunit", ".xml");
        Process process = new ProcessBuilder(phpunit.get().toString(), "--log-junit", report.toString())
                .directory(PLUGIN.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("phpunit ended").isTrue();
        System.out.println(output);

        assertThat(process.exitValue()).as("phpunit's exit code; its output:%n%s", output).isZero();
        Matcher counts = TESTSUITE.matcher(Files.readString(report));
        Files.deleteIfExists(report);
        assertThat(counts.find()).as("phpunit's JUnit report names the herald-publisher suite").isTrue();
        int tests = Integer.parseInt(counts.group(1));
        System.out.printf("herald-publisher PHP unit tests: %d tests, %s assertions, %s errors, %s warnings, %s failures, %s skipped%n",
                tests, counts.group(2), counts.group(3), counts.group(4), counts.group(5), counts.group(6));
        assertThat(tests).isGreaterThanOrEqualTo(AT_LEAST_TESTS);
        assertThat(counts.group(3) + counts.group(4) + counts.group(5) + counts.group(6)).isEqualTo("0000");
    }

    private static Optional<Path> phpunit() throws IOException {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "phpunit");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
