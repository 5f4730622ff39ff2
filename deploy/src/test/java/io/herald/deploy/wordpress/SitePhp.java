package io.herald.deploy.wordpress;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** PHP run inside one of the local sites of {@code .ci/wordpress.sh} (WordPress loaded), as wp-cli would. */
final class SitePhp {

    private SitePhp() {
    }

    /**
     * The same PHP in {@code processes} processes started together on the site of that Debian config
     * name; what each printed, trimmed. A non-zero exit is an exception carrying the output.
     */
    static List<String> run(String configName, String code, int processes) throws IOException, InterruptedException {
        Path script = Files.createTempFile("herald-wordpress-it", ".php");
        Files.writeString(script, """
                <?php
                $_SERVER['WORDPRESS_CONFIG'] = '%1$s';
                $_SERVER['HTTP_HOST'] = '%1$s';
                require '/usr/share/wordpress/wp-load.php';
                %2$s
                """.formatted(configName, code));
        try {
            List<Process> started = new ArrayList<>();
            for (int i = 0; i < processes; i++) {
                started.add(new ProcessBuilder("php", script.toString()).redirectErrorStream(true).start());
            }
            List<String> outputs = new ArrayList<>();
            for (Process process : started) {
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!process.waitFor(2, TimeUnit.MINUTES) || process.exitValue() != 0) {
                    throw new IllegalStateException("PHP in the WordPress site " + configName + " failed: " + output);
                }
                outputs.add(output.trim());
            }
            return outputs;
        } finally {
            Files.deleteIfExists(script);
        }
    }
}
