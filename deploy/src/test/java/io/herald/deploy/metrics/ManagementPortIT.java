package io.herald.deploy.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.deploy.HeraldApplication;
import io.herald.testsupport.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Herald with {@code management.server.port} set, as an operator moves the actuator off the
 * public port (docs/operations.md#configuration): Prometheus answers on the management port and no longer
 * on the API's, the API key rules still apply there, and a scrape answers from cached gauges even
 * while the tables behind them are locked against every reader.
 */
class ManagementPortIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void prometheusAnswersOnTheManagementPortFromCachedGauges() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(HeraldApplication.class).run(
                "--spring.datasource.url=" + database.jdbcUrl(),
                "--server.port=0",
                "--management.server.port=0",
                "--herald.test.sandbox-loopback=false",
                "--herald.secrets.encryption-key=MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=",
                "--herald.audit.signing-key=YXVkaXQtc2lnbmluZy1rZXktZm9yLXRlc3RzLTAxMjM=",
                "--herald.security.system-key=hs.management-port-key-0123456789abcdefghijklmnopqrstuv",
                "--herald.metrics.refresh-interval=1s")) {
            int api = ((WebServerApplicationContext) app).getWebServer().getPort();
            int management = app.getEnvironment().getProperty("local.management.port", Integer.class);
            assertThat(management).isNotEqualTo(api);
            app.getBean(GaugeRefresher.class).refreshNow();

            HttpResponse<String> scrape = get(management, "/actuator/prometheus");
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.body()).contains("herald_publications_needs_decision ")
                    .contains("herald_processor_lag_events{");
            assertThat(get(api, "/actuator/prometheus").statusCode()).as("not on the API port").isEqualTo(404);
            assertThat(get(management, "/actuator/health").statusCode()).isEqualTo(200);
            // the API's access rules run on the management port too: an endpoint they do not open is refused
            HttpResponse<String> unopened = get(management, "/actuator/metrics");
            assertThat(unopened.statusCode()).as(unopened.body()).isIn(401, 403, 404);
            assertThat(unopened.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");

            try (Connection lock = database.connect()) {
                lock.setAutoCommit(false);
                try (Statement s = lock.createStatement()) {
                    s.execute("LOCK TABLE publication_view, domain_event_entry IN ACCESS EXCLUSIVE MODE");
                }
                try {
                    CompletableFuture<Integer> scrapes = CompletableFuture.supplyAsync(() -> {
                        int answered = 0;
                        for (int i = 0; i < 20; i++) {
                            HttpResponse<String> r = get(management, "/actuator/prometheus");
                            if (r.statusCode() == 200 && r.body().contains("herald_publications_needs_decision ")) {
                                answered++;
                            }
                        }
                        return answered;
                    });
                    assertThat(scrapes.get(20, TimeUnit.SECONDS)).as("scrapes answered while the tables were locked")
                            .isEqualTo(20);
                } finally {
                    lock.rollback();
                }
            }
        }
    }

    private static HttpResponse<String> get(int port, String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                    .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
