package io.herald.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * In tests, Herald talks to its own provider sandbox over real HTTP: the adapters need the
 * sandbox's address when they are built, before a random port would be known. So every test
 * application of this JVM listens on one free port chosen up front.
 */
public class SandboxLoopback implements EnvironmentPostProcessor, Ordered {

    private static final int PORT = freePort();

    public static int port() {
        return PORT;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.getProperty("herald.test.sandbox-loopback", Boolean.class, true)) {
            // the sandbox's own environment post-processor points the adapters at this port
            environment.getPropertySources().addFirst(new MapPropertySource("herald-test-sandbox-loopback",
                    Map.of("server.port", String.valueOf(PORT))));
        }
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
