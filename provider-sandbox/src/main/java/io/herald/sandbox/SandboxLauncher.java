package io.herald.sandbox;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.autoconfigure.http.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration;
import org.springframework.boot.autoconfigure.web.embedded.EmbeddedWebServerFactoryCustomizerAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.DispatcherServletAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.HttpEncodingAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.MultipartAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.ServletWebServerFactoryAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.WebMvcAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.error.ErrorMvcAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.ComponentScan;

/**
 * The provider sandbox as a process of its own: only the sandbox's beans and a web server, no
 * database, no event store, nothing of Herald. A Herald started apart is pointed at it with
 * {@link SandboxChannelsEnvironment#pointedAt(String)}, so the sandbox's side of every call is
 * spent in this process, not in Herald's. Started with Herald's libraries on the class path
 * ({@code java -cp 'lib/*' io.herald.sandbox.SandboxLauncher --server.port=9000}); only the web
 * auto-configurations are imported, so none of the others on that class path (the database's,
 * the event store's, security's) apply.
 *
 * <p>Its defaults hold many slow calls at once: Tomcat takes up to 20,000 connections, and an
 * answer held back by the sandbox's latency never times out on the sandbox's side. Any of them,
 * and {@code server.port} (0 for a random one, 8090 by default), may be given as arguments.
 */
public final class SandboxLauncher {

    /** Not a {@code @Configuration}: Herald's scan of {@code io.herald} must not pick it up. */
    @ImportAutoConfiguration({PropertyPlaceholderAutoConfiguration.class, JacksonAutoConfiguration.class,
            HttpMessageConvertersAutoConfiguration.class, ServletWebServerFactoryAutoConfiguration.class,
            // applies the server.tomcat.* properties: without it Tomcat kept its own defaults, a listen
            // backlog of 100, and a burst of new connections overflowed it
            EmbeddedWebServerFactoryCustomizerAutoConfiguration.class,
            DispatcherServletAutoConfiguration.class, WebMvcAutoConfiguration.class, HttpEncodingAutoConfiguration.class,
            MultipartAutoConfiguration.class, ErrorMvcAutoConfiguration.class})
    @ComponentScan(basePackageClasses = SandboxState.class)
    static class Application {
    }

    private SandboxLauncher() {
    }

    /** Starts the sandbox; {@code args} are Spring Boot's ({@code --name=value}), overriding the defaults. */
    public static ConfigurableApplicationContext start(String... args) {
        SpringApplication application = new SpringApplication(Application.class);
        application.setWebApplicationType(WebApplicationType.SERVLET);
        application.setDefaultProperties(java.util.Map.of(
                "server.port", "8090",
                "herald.sandbox.enabled", "true",
                "spring.main.banner-mode", "off",
                "server.tomcat.max-connections", "20000",
                "server.tomcat.accept-count", "4096",
                "spring.mvc.async.request-timeout", "-1"));
        return application.run(args);
    }

    public static void main(String[] args) {
        start(args);
    }
}
