package io.herald.deploy.wordpress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * The WordPress plugins' installable zips, as the build makes them ({@code wordpress/target/}, the
 * {@code wordpress} module's package phase), installed on the local sites of {@code .ci/wordpress.sh}
 * the way a site owner installs them: herald-publisher through WordPress's own plugin installer (what
 * Plugins → Add New → Upload runs, replacing an installed copy) and then activated; the mu-plugin
 * unzipped into the site's must-use plugins folder. Once per site and test JVM, before the first test
 * that uses it, so every live test runs the plugins of this build and never the source folders.
 */
final class PluginZips {

    static final Path FOLDER = Path.of("..", "wordpress", "target").toAbsolutePath().normalize();
    static final Path PUBLISHER = FOLDER.resolve("herald-publisher.zip");
    static final Path MU_PLUGIN = FOLDER.resolve("herald-publication-id.zip");
    static final String PUBLISHER_MAIN_FILE = "herald-publisher/herald-publisher.php";

    private static final Set<String> INSTALLED = new HashSet<>();

    private PluginZips() {
    }

    /** Installs and activates herald-publisher from its zip; prints what was installed. */
    static synchronized void installPublisher(String configName) throws IOException, InterruptedException {
        if (!INSTALLED.add("publisher " + configName)) {
            return;
        }
        Path zip = zip(PUBLISHER);
        String out = SitePhp.run(configName, """
                require_once ABSPATH . 'wp-admin/includes/file.php';
                require_once ABSPATH . 'wp-admin/includes/plugin.php';
                require_once ABSPATH . 'wp-admin/includes/class-wp-upgrader.php';
                defined('FS_METHOD') || define('FS_METHOD', 'direct');
                $skin = new WP_Ajax_Upgrader_Skin();
                // as an upload of a plugin that is already there, after "Replace current with uploaded"
                $installed = (new Plugin_Upgrader($skin))->install('%s', ['overwrite_package' => true]);
                if ($installed !== true) {
                    echo 'installing the zip failed: ', implode('; ', $skin->get_error_messages()),
                        is_wp_error($installed) ? ' ' . $installed->get_error_message() : '';
                    exit(1);
                }
                $activated = activate_plugin('%s', '', false, false);
                if (is_wp_error($activated)) {
                    echo 'activating failed: ', $activated->get_error_message();
                    exit(1);
                }
                $folder = WP_PLUGIN_DIR . '/herald-publisher';
                echo get_plugin_data($folder . '/herald-publisher.php', false, false)['Version'], ' ',
                    is_plugin_active('%2$s') ? 'active' : 'inactive', ' ',
                    file_exists($folder . '/tests') || file_exists($folder . '/phpunit.xml.dist') ? 'with-dev-files' : 'clean';
                """.formatted(zip, PUBLISHER_MAIN_FILE), 1).get(0);
        System.out.printf("herald-publisher installed from %s (%d bytes): %s%n", zip.getFileName(), Files.size(zip), out);
        assertThat(out).as("version, state and contents of the installed plugin").matches("\\d+\\.\\d+\\.\\d+ active clean");
    }

    /** Unzips herald-publication-id into the site's mu-plugins folder. */
    static synchronized void installMuPlugin(String configName) throws IOException, InterruptedException {
        if (!INSTALLED.add("mu-plugin " + configName)) {
            return;
        }
        Path zip = zip(MU_PLUGIN);
        String out = SitePhp.run(configName, """
                require_once ABSPATH . 'wp-admin/includes/file.php';
                defined('FS_METHOD') || define('FS_METHOD', 'direct');
                WP_Filesystem();
                wp_mkdir_p(WPMU_PLUGIN_DIR);
                $unzipped = unzip_file('%s', WPMU_PLUGIN_DIR);
                if (is_wp_error($unzipped)) {
                    echo 'unzipping failed: ', $unzipped->get_error_message();
                    exit(1);
                }
                echo file_exists(WPMU_PLUGIN_DIR . '/herald-publication-id.php') ? 'installed' : 'missing';
                """.formatted(zip), 1).get(0);
        System.out.printf("herald-publication-id installed from %s (%d bytes): %s%n", zip.getFileName(), Files.size(zip), out);
        assertThat(out).isEqualTo("installed");
    }

    private static Path zip(Path zip) {
        if (!Files.isRegularFile(zip)) {
            throw new IllegalStateException(zip + " is missing: the wordpress module builds it (./mvnw -pl deploy -am verify"
                    + " builds it first; ./mvnw -o -pl wordpress package alone)");
        }
        return zip;
    }
}
