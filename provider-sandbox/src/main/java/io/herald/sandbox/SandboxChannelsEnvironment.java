package io.herald.sandbox;

import org.springframework.boot.context.properties.bind.Binder;

import io.herald.platform.config.SandboxProperties;

import io.herald.platform.data.DataDirectory;
import io.herald.sandbox.facebook.FacebookLoginController;
import io.herald.sandbox.linkedin.LinkedInLoginController;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * With the sandbox on, Facebook and LinkedIn are the sandbox's simulations served by this very
 * application, unless their base URLs are set explicitly. (WordPress sites are per connection.)
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
        String base = "http://localhost:${server.port:8080}/sandbox";
        // lowest precedence: any explicit setting wins
        environment.getPropertySources().addLast(new MapPropertySource("herald-sandbox-channels", Map.ofEntries(
                Map.entry("herald.channels.facebook.graph-base-url", base + "/facebook/v25.0"),
                Map.entry("herald.channels.linkedin.api-base-url", base + "/linkedin"),
                // the sandbox's Facebook app, and Herald's own address for the providers' callbacks
                Map.entry("herald.channels.facebook.dialog-base-url", base + "/facebook/www/v25.0"),
                Map.entry("herald.channels.facebook.app-id", FacebookLoginController.APP_ID),
                Map.entry("herald.channels.facebook.app-secret", FacebookLoginController.APP_SECRET),
                Map.entry("herald.channels.linkedin.authorization-base-url", base + "/linkedin/oauth/v2"),
                Map.entry("herald.channels.linkedin.client-id", LinkedInLoginController.CLIENT_ID),
                Map.entry("herald.channels.linkedin.client-secret", LinkedInLoginController.CLIENT_SECRET),
                Map.entry("herald.channels.linkedin.oauth-scopes", "openid,profile,w_member_social,r_member_social"),
                Map.entry("herald.public-base-url", "http://localhost:${server.port:8080}"),
                // the sandbox's WordPress sites are this application on localhost
                Map.entry("herald.outbound.allow-private-networks", "true"))));
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
