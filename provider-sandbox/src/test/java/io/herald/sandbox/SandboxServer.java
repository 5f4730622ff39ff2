package io.herald.sandbox;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.ComponentScan;

/**
 * The provider sandbox on its own, on a random port, over real HTTP: one per test JVM, shared by
 * every test (each test uses its own Page, author or site, so they do not see each other's posts).
 */
public final class SandboxServer {

    /**
     * Deliberately not a {@code @Configuration}: an application scanning {@code io.herald.adapters}
     * with this test-jar on its class path must not pick it up.
     */
    @EnableAutoConfiguration
    @ComponentScan(basePackageClasses = SandboxState.class)
    static class Application {
    }

    private static SandboxServer shared;

    private final ConfigurableApplicationContext context;
    private final String baseUrl;

    private SandboxServer() {
        context = new SpringApplicationBuilder(Application.class)
                .web(WebApplicationType.SERVLET)
                .properties("server.port=0", "herald.sandbox.enabled=true", "spring.main.banner-mode=off",
                        "server.tomcat.max-connections=20000", "server.tomcat.accept-count=4096",
                        "spring.mvc.async.request-timeout=-1")
                .run();
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        baseUrl = "http://127.0.0.1:" + port;
    }

    public static synchronized SandboxServer shared() {
        if (shared == null) {
            shared = new SandboxServer();
            Runtime.getRuntime().addShutdownHook(new Thread(shared.context::close));
        }
        return shared;
    }

    public String baseUrl() {
        return baseUrl;
    }

    public SandboxClient client() {
        return new SandboxClient(baseUrl);
    }

    public SandboxState state() {
        return context.getBean(SandboxState.class);
    }
}
