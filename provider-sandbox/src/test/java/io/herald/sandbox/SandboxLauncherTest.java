package io.herald.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.platform.wire.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.apache.coyote.AbstractProtocol;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;
import org.springframework.context.ConfigurableApplicationContext;

class SandboxLauncherTest {

    @Test
    void theLauncherServesTheSandboxOverHttpAndAnswersAProviderCall() throws Exception {
        try (ConfigurableApplicationContext context = SandboxLauncher.start("--server.port=0")) {
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            SandboxClient sandbox = new SandboxClient("http://127.0.0.1:" + port);
            sandbox.facebookToken("EAAB-launcher", "4242", SandboxState.FacebookTokenKind.PAGE);
            sandbox.latency(300);

            HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create(sandbox.facebookGraphUrl() + "/4242/feed"))
                    .timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer EAAB-launcher")
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("message=launched"))
                    .build(), HttpResponse.BodyHandlers.ofString());

            assertThat(answer.statusCode()).isEqualTo(200);
            String id = Json.parse(answer.body()).path("id").asText();
            assertThat(id).startsWith("4242_");
            assertThat(sandbox.truth("facebook", "4242").toString()).contains(id, "launched");
            assertThat(context.containsBean("dataSource")).as("no database of its own").isFalse();
        }
    }

    @Test
    void theLauncherTakesABurstOfNewConnections() {
        // a slow provider's calls each open a connection of their own: 2,000 at once in the benchmark
        try (ConfigurableApplicationContext context = SandboxLauncher.start("--server.port=0")) {
            TomcatWebServer server = (TomcatWebServer) ((WebServerApplicationContext) context).getWebServer();
            AbstractProtocol<?> protocol = (AbstractProtocol<?>) server.getTomcat().getConnector().getProtocolHandler();

            assertThat(protocol.getAcceptCount()).as("the listen backlog").isEqualTo(4096);
            assertThat(protocol.getMaxConnections()).isEqualTo(20000);
        }
    }
}
