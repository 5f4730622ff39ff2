package io.herald.sandbox;

import org.springframework.boot.context.properties.bind.Binder;

import io.herald.platform.config.SandboxProperties;

import io.herald.platform.data.DataDirectory;
import io.herald.sandbox.facebook.FacebookLoginController;
import io.herald.sandbox.instagram.InstagramLoginController;
import io.herald.sandbox.linkedin.LinkedInLoginController;
import io.herald.sandbox.threads.ThreadsLoginController;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * With the sandbox on, Facebook, LinkedIn, Instagram and Threads are the sandbox's simulations
 * served by this very application, unless their base URLs are set explicitly. (WordPress sites are
 * per connection.)
 * The adapters need that address when they are built, so a random port ({@code server.port=0})
 * is chosen here, up front. The sandbox's WordPress sites live on this very application, so the
 * demo run allows private networks for outbound calls.
 *
 * <p>The sandbox registers demo credentials, a demo workspace and its key in whatever database it
 * is given, so it refuses an external one ({@code spring.datasource.url}) unless
 * {@code herald.sandbox.allow-external-database=true} says that is meant: checked here, before
 * anything connects to that database.
 */
public class SandboxChannelsEnvironment implements EnvironmentPostProcessor {

    static final String ALLOW_EXTERNAL_DATABASE = "herald.sandbox.allow-external-database";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        // bound here, not injected: this runs before any bean exists
        SandboxProperties sandbox = Binder.get(environment).bindOrCreate("herald.sandbox", SandboxProperties.class);
        if (!sandbox.enabled()) {
            return;
        }
        if (!DataDirectory.embeddedDatabase(environment) && !sandbox.allowExternalDatabase()) {
            throw new SandboxOnExternalDatabaseException();
        }
        if ("0".equals(environment.getProperty("server.port"))) {
            environment.getPropertySources().addFirst(new MapPropertySource("herald-sandbox-port",
                    Map.of("server.port", String.valueOf(freePort()))));
        }
        // lowest precedence: any explicit setting wins
        String herald = "http://localhost:${server.port:8080}";
        Map<String, Object> settings = new HashMap<>(pointedAt(herald));
        // Herald's own public address, where the providers send the browser back after a connect
        settings.put("herald.public-base-url", herald);
        environment.getPropertySources().addLast(new MapPropertySource("herald-sandbox-channels", settings));
    }

    /**
     * The settings that point Herald at a sandbox served at {@code base} (e.g.
     * {@code http://localhost:8080}): the providers at configured addresses, the sandbox's Facebook,
     * LinkedIn, Instagram and Threads apps for connecting through them, and private networks allowed, as the sandbox's
     * WordPress sites and PDS are on localhost. Also for a Herald started apart from the sandbox
     * (which then sets its own {@code herald.public-base-url}).
     */
    public static Map<String, String> pointedAt(String base) {
        String sandbox = base + "/sandbox";
        return Map.ofEntries(
                Map.entry("herald.channels.facebook.graph-base-url", sandbox + "/facebook/v25.0"),
                Map.entry("herald.channels.linkedin.api-base-url", sandbox + "/linkedin"),
                Map.entry("herald.channels.threads.base-url", sandbox + "/threads/v1.0"),
                Map.entry("herald.channels.instagram.graph-base-url", sandbox + "/instagram/v23.0"),
                Map.entry("herald.channels.facebook.dialog-base-url", sandbox + "/facebook/www/v25.0"),
                Map.entry("herald.channels.facebook.app-id", FacebookLoginController.APP_ID),
                Map.entry("herald.channels.facebook.app-secret", FacebookLoginController.APP_SECRET),
                Map.entry("herald.channels.linkedin.authorization-base-url", sandbox + "/linkedin/oauth/v2"),
                Map.entry("herald.channels.linkedin.client-id", LinkedInLoginController.CLIENT_ID),
                Map.entry("herald.channels.linkedin.client-secret", LinkedInLoginController.CLIENT_SECRET),
                Map.entry("herald.channels.instagram.authorize-base-url", sandbox + "/instagram/www"),
                Map.entry("herald.channels.instagram.token-base-url", sandbox + "/instagram/api"),
                Map.entry("herald.channels.instagram.app-id", InstagramLoginController.APP_ID),
                Map.entry("herald.channels.instagram.app-secret", InstagramLoginController.APP_SECRET),
                Map.entry("herald.channels.threads.authorize-base-url", sandbox + "/threads/www"),
                Map.entry("herald.channels.threads.app-id", ThreadsLoginController.APP_ID),
                Map.entry("herald.channels.threads.app-secret", ThreadsLoginController.APP_SECRET),
                // the sandbox's app has the organization scopes too; its member administers no organization
                // until /sandbox/_admin/linkedin/login names some
                Map.entry("herald.channels.linkedin.oauth-scopes", "openid,profile,w_member_social,r_member_social,"
                        + "w_organization_social,r_organization_social,rw_organization_admin"),
                Map.entry("herald.outbound.allow-private-networks", "true"));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
