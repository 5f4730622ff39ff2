package io.herald.deploy.wordpress;

import io.herald.adapters.wordpress.WordPressSecrets;
import io.herald.adapters.wordpress.WordPressSettings;
import io.herald.adapters.port.ChannelConnection;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The two local WordPress sites started by {@code .ci/wordpress.sh}, as read from the file it
 * writes: one for Herald's mu-plugin (installed from its zip by {@link #installMuPlugin()}), one stock;
 * and a contributor (who may not publish) on the plugin site, absent from files written by earlier
 * versions of the script.
 */
record LocalWordPress(Site withPlugin, Site stock, Optional<Site> contributorOnPlugin, String pluginConfig, Path envFile) {

    static final String ENV_FILE_VARIABLE = "HERALD_WORDPRESS_ENV";
    static final Path DEFAULT_ENV_FILE = Path.of("/tmp/herald-wordpress.env");

    /** One site and the editor that Herald logs in as. {@code toString} leaves the password out. */
    record Site(String name, String url, String username, String applicationPassword) {

        ChannelConnection connection() {
            return connectionWithPassword(applicationPassword);
        }

        ChannelConnection connectionWithPassword(String password) {
            return new ChannelConnection(
                    WorkspaceId.of("ws_wordpress_live"),
                    ChannelId.of("ch_wordpress_" + name),
                    ChannelType.of("wordpress"),
                    new WordPressSettings(url, username),
                    new WordPressSecrets(password),
                    false);
        }

        /** A direct REST call, independent of the adapter under test, to see what WordPress holds. */
        HttpResponse<String> get(String restRoute) throws IOException, InterruptedException {
            String credentials = Base64.getEncoder()
                    .encodeToString((username + ":" + applicationPassword).getBytes(StandardCharsets.UTF_8));
            HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/?rest_route=" + restRoute))
                    .header("Authorization", "Basic " + credentials)
                    .timeout(Duration.ofSeconds(30))
                    .GET()
                    .build();
            return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        }

        /** A direct REST write ({@code POST} with a JSON body) as this site's user. */
        HttpResponse<String> post(String restRoute, String json) throws IOException, InterruptedException {
            String credentials = Base64.getEncoder()
                    .encodeToString((username + ":" + applicationPassword).getBytes(StandardCharsets.UTF_8));
            HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/?rest_route=" + restRoute))
                    .header("Authorization", "Basic " + credentials)
                    .header("Content-Type", "application/json")
                    .timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(json))
                    .build();
            return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        }

        /**
         * An XML-RPC {@code wp.newPost} draft with one custom field, as this site's user: a way
         * to write meta that does not pass through the REST API. The values must need no XML escaping.
         */
        HttpResponse<String> xmlRpcNewDraft(String title, String metaKey, String metaValue)
                throws IOException, InterruptedException {
            String body = """
                    <?xml version="1.0"?><methodCall><methodName>wp.newPost</methodName><params>
                    <param><value><int>1</int></value></param>
                    <param><value><string>%s</string></value></param>
                    <param><value><string>%s</string></value></param>
                    <param><value><struct>
                    <member><name>post_title</name><value><string>%s</string></value></member>
                    <member><name>post_status</name><value><string>draft</string></value></member>
                    <member><name>custom_fields</name><value><array><data><value><struct>
                    <member><name>key</name><value><string>%s</string></value></member>
                    <member><name>value</name><value><string>%s</string></value></member>
                    </struct></value></data></array></value></member>
                    </struct></value></param></params></methodCall>
                    """.formatted(username, applicationPassword, title, metaKey, metaValue);
            HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/xmlrpc.php"))
                    .header("Content-Type", "text/xml")
                    .timeout(Duration.ofSeconds(30))
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build();
            return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        }

        @Override
        public String toString() {
            return name + " site " + url;
        }
    }

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    static Path envFileLocation() {
        return Optional.ofNullable(System.getenv(ENV_FILE_VARIABLE))
                .filter(value -> !value.isBlank())
                .map(Path::of)
                .orElse(DEFAULT_ENV_FILE);
    }

    /** Empty when the sites were never set up on this machine. */
    static Optional<LocalWordPress> fromEnvFile() throws IOException {
        Path file = envFileLocation();
        if (!Files.isReadable(file)) {
            return Optional.empty();
        }
        Properties values = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            values.load(reader);
        }
        Site withPlugin = site("plugin", "WP_PLUGIN", values, file);
        Optional<Site> contributor = Optional.ofNullable(values.getProperty("WP_PLUGIN_CONTRIBUTOR_APP_PASSWORD"))
                .filter(password -> !password.isBlank())
                .map(password -> new Site("plugin-contributor", withPlugin.url(),
                        required(values, "WP_PLUGIN_CONTRIBUTOR_USERNAME", file), password.trim()));
        String pluginConfig = values.getProperty("WP_PLUGIN_CONFIG", "herald-plugin").trim();
        return Optional.of(new LocalWordPress(withPlugin, site("stock", "WP_STOCK", values, file), contributor, pluginConfig,
                file));
    }

    private static Site site(String name, String prefix, Properties values, Path file) {
        return new Site(name, required(values, prefix + "_URL", file), required(values, prefix + "_USERNAME", file),
                required(values, prefix + "_APP_PASSWORD", file));
    }

    private static String required(Properties values, String key, Path file) {
        String value = values.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(file + " has no " + key + "; run .ci/wordpress.sh again");
        }
        return value.trim();
    }

    /** Installs the mu-plugin on the plugin site from the zip the build made (once per test JVM). */
    void installMuPlugin() throws IOException, InterruptedException {
        PluginZips.installMuPlugin(pluginConfig);
    }

    /**
     * Why a site does not answer, if one does not. The env file outlives the servers (a stopped
     * session ends them), so "installed" does not mean "running".
     */
    Optional<String> whyNotAnswering() {
        for (Site site : List.of(withPlugin, stock)) {
            try {
                HttpResponse<String> response = site.get("/");
                if (response.statusCode() != 200) {
                    return Optional.of("the " + site + " answers HTTP " + response.statusCode() + " on its REST index");
                }
            } catch (IOException e) {
                return Optional.of(envFile + " exists but the " + site + " does not answer (" + e + ")");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.of("interrupted while checking the " + site);
            }
        }
        return Optional.empty();
    }
}
