package io.herald.deploy.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.deploy.HeraldIntegrationTest;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A scrape reads gauges from memory: the values are counted on the refresher's thread, never in
 * the scrape. Spring Boot's tests switch metric export off, so the registry is read directly,
 * every gauge, as a Prometheus scrape reads it; {@code ManagementPortIT} scrapes over HTTP.
 */
class CachedGaugesIT extends HeraldIntegrationTest {

    private static final int SCRAPES = 25;

    @Autowired
    DataSource dataSource;

    @Autowired
    MeterRegistry registry;

    @Autowired
    GaugeRefresher refresher;

    @Test
    void scrapingTheOpenCaseGaugesNeverTouchesTheDatabase() {
        AtomicInteger connections = new AtomicInteger();
        DataSource counting = (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection")) {
                        connections.incrementAndGet();
                    }
                    return method.invoke(dataSource, args);
                });
        SimpleMeterRegistry own = new SimpleMeterRegistry();
        OpenCasesMetrics metrics = new OpenCasesMetrics(own, new JdbcTemplate(counting));
        assertThat(own.get("herald.publications.needs_decision").gauge().value()).as("before the first count").isNaN();

        metrics.refresh();
        assertThat(connections.get()).as("one count, one connection").isEqualTo(1);
        for (int i = 0; i < SCRAPES; i++) {
            assertThat(own.get("herald.publications.needs_decision").gauge().value()).isNotNaN().isNotNegative();
            assertThat(own.get("herald.publications.outcome_unknown").gauge().value()).isNotNaN().isNotNegative();
        }
        assertThat(connections.get()).as("connections taken by " + SCRAPES + " scrapes").isEqualTo(1);
    }

    /**
     * With the publication view and the event store locked against every reader, the
     * application's gauges still answer at once, scrape after scrape: none of them queries
     * either table. The refresh afterwards reads them again.
     */
    @Test
    void theApplicationsGaugesAnswerWhileTheirTablesAreLocked() throws Exception {
        refresher.refreshNow();
        List<Gauge> gauges = new ArrayList<>();
        for (Meter meter : registry.getMeters()) {
            if (meter instanceof Gauge gauge) {
                gauges.add(gauge);
            }
        }
        assertThat(gauges).extracting(g -> g.getId().getName())
                .contains("herald.publications.needs_decision", "herald.processor.lag_events",
                        "herald.webhooks.deliveries");
        try (Connection lock = dataSource.getConnection()) {
            lock.setAutoCommit(false);
            try (Statement s = lock.createStatement()) {
                s.execute("LOCK TABLE publication_view, domain_event_entry, webhook_delivery IN ACCESS EXCLUSIVE MODE");
            }
            try {
                CompletableFuture<Integer> scrapes = CompletableFuture.supplyAsync(() -> {
                    int read = 0;
                    for (int i = 0; i < SCRAPES; i++) {
                        for (Gauge gauge : gauges) {
                            gauge.value();
                            read++;
                        }
                    }
                    return read;
                });
                assertThat(scrapes.get(10, TimeUnit.SECONDS)).isEqualTo(SCRAPES * gauges.size());
                assertThat(registry.get("herald.publications.needs_decision").gauge().value()).isNotNaN();
            } finally {
                lock.rollback();
            }
        }
    }
}
