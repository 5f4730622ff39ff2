package io.herald.deploy.wordpress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The plugin's API key and signing secret belong to the Herald URL they were entered for: a
 * changed URL clears them and asks for them again, so they never reach the new address; and all
 * three may come from wp-config.php instead, shown read-only in the settings.
 */
class HeraldPublisherUrlChangeLiveIT extends PublisherLiveTestBase {

    @Test
    void aChangedHeraldUrlClearsTheKeyAndSecretSoTheNewAddressNeverSeesThem() throws Exception {
        String oldKey = json.readTree(site.php("echo wp_json_encode(Herald_Publisher_Settings::get());"))
                .get("api_key").asText();
        String oldSecret = "old-signing-secret-0123456789abcdefghijklmnop";
        site.php("$s = get_option('herald_publisher_settings'); $s['signing_secret'] = '" + oldSecret + "';"
                + " update_option('herald_publisher_settings', $s);");
        assertThat(oldKey).isNotBlank();
        try (Recorder elsewhere = new Recorder()) {
            // what the settings form sends: the new URL, the other fields, never the secrets
            String saved = site.php("""
                    require_once ABSPATH . 'wp-admin/includes/template.php';
                    update_option('herald_publisher_settings', ['herald_url' => '%s', 'workspace' => '%s',
                        'channels' => ['fb-main', 'li-main'], 'timeout' => 2]);
                    $codes = array_column(get_settings_errors('herald_publisher_settings'), 'code');
                    echo wp_json_encode(['effective' => Herald_Publisher_Settings::get(),
                        'stored' => get_option('herald_publisher_settings'), 'notices' => $codes,
                        'complete' => Herald_Publisher_Settings::is_complete()]);
                    """.formatted(elsewhere.url(), ws));
            JsonNode state = json.readTree(saved);

            for (String view : List.of("effective", "stored")) {
                assertThat(state.path(view).path("api_key").asText()).as(view).isEmpty();
                assertThat(state.path(view).path("signing_secret").asText()).as(view).isEmpty();
            }
            assertThat(state.path("effective").path("herald_url").asText()).isEqualTo(elsewhere.url());
            assertThat(state.path("complete").asBoolean()).isFalse();
            assertThat(state.path("notices").toString()).contains("herald_url_changed");
            assertThat(saved).doesNotContain(oldKey).doesNotContain(oldSecret);

            int post = site.publishPost("Herald moved " + page, "<p>Not to be shared with the old key.</p>", null);
            site.fireHookAgain(post);
            site.dispatch();
            assertThat(elsewhere.requests).isEmpty();

            // asked again: the key given for the new URL is the one sent there, never the old one
            String newKey = createKey(ws, List.of("publisher"), "wordpress-new");
            site.php("update_option('herald_publisher_settings', ['herald_url' => '" + elsewhere.url() + "',"
                    + " 'api_key' => '" + newKey + "', 'workspace' => '" + ws + "', 'channels' => ['fb-main']]);");
            int second = site.publishPost("Herald moved again " + page, "<p>Shared with the new key.</p>", null);
            site.fireHookAgain(second);
            site.dispatch();
            assertThat(elsewhere.requests).isNotEmpty();
            assertThat(elsewhere.requests).allSatisfy(request -> assertThat(request)
                    .contains("Bearer " + newKey).doesNotContain(oldKey).doesNotContain(oldSecret));
        }
    }

    @Test
    void theUrlKeyAndSecretMayComeFromWpConfigAndShowAsSetByConfiguration() throws Exception {
        String out = site.php("""
                define('HERALD_URL', 'https://herald.config.example/api/v1/');
                define('HERALD_API_KEY', 'k_configured-key-from-wp-config');
                define('HERALD_SIGNING_SECRET', 'configured-signing-secret-0123456789abcdef');
                update_option('herald_publisher_settings', ['herald_url' => 'https://typed.example',
                    'api_key' => 'typed-key', 'signing_secret' => 'typed-secret', 'workspace' => '%s',
                    'channels' => ['fb-main']]);
                require_once ABSPATH . 'wp-admin/includes/template.php';
                require_once ABSPATH . 'wp-admin/includes/plugin.php';
                require_once WP_PLUGIN_DIR . '/herald-publisher/includes/class-herald-publisher-admin.php';
                $admins = get_users(['role' => 'administrator', 'number' => 1]);
                wp_set_current_user($admins[0]->ID);
                ob_start();
                Herald_Publisher_Admin::settings_page();
                $page = ob_get_clean();
                echo wp_json_encode(['effective' => Herald_Publisher_Settings::get(),
                    'stored' => get_option('herald_publisher_settings'), 'page' => $page]);
                """.formatted(ws));
        JsonNode state = json.readTree(out);

        assertThat(state.path("effective").path("herald_url").asText()).isEqualTo("https://herald.config.example");
        assertThat(state.path("effective").path("api_key").asText()).isEqualTo("k_configured-key-from-wp-config");
        assertThat(state.path("effective").path("signing_secret").asText())
                .isEqualTo("configured-signing-secret-0123456789abcdef");
        // what configuration sets is not stored from the form
        assertThat(state.path("stored").path("api_key").asText()).isEmpty();
        assertThat(state.path("stored").path("signing_secret").asText()).isEmpty();
        String page = state.path("page").asText();
        assertThat(page).contains("Set by configuration (HERALD_URL in wp-config.php)")
                .contains("Set by configuration (HERALD_API_KEY in wp-config.php)")
                .contains("Set by configuration (HERALD_SIGNING_SECRET in wp-config.php)")
                .doesNotContain("k_configured-key-from-wp-config")
                .doesNotContain("configured-signing-secret")
                .doesNotContain("name=\"herald_publisher_settings[api_key]\"")
                .doesNotContain("name=\"herald_publisher_settings[herald_url]\"");
        assertThat(page).containsPattern("id=\"herald-api_key\"[^>]*readonly disabled");
    }

    /** A listener standing for a Herald at another URL: records every request, answers 503. */
    private static final class Recorder implements AutoCloseable {
        final List<String> requests = new CopyOnWriteArrayList<>();
        private final HttpServer server;

        Recorder() throws IOException {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", exchange -> {
                requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                        + exchange.getRequestHeaders().entrySet() + " "
                        + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                byte[] answer = "{}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(503, answer.length);
                try (OutputStream body = exchange.getResponseBody()) {
                    body.write(answer);
                }
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort();
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
