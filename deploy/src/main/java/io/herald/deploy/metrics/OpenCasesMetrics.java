package io.herald.deploy.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Gauges of what is waiting, read from the publication view when scraped: publications whose
 * outcome is unknown, and those in the decision queue. Alongside the counters and timers the
 * attempt runner records ({@code herald.attempts}, {@code herald.attempt.duration},
 * {@code herald.read_backs}).
 */
@Configuration(proxyBeanMethods = false)
public class OpenCasesMetrics {

    @Bean
    Gauge openUnknownOutcomes(MeterRegistry registry, JdbcTemplate jdbc) {
        return Gauge.builder("herald.publications.outcome_unknown",
                        () -> count(jdbc, "SELECT count(*) FROM publication_view WHERE status = 'OUTCOME_UNKNOWN'"))
                .description("publications whose last attempt's outcome is unknown")
                .register(registry);
    }

    @Bean
    Gauge decisionQueue(MeterRegistry registry, JdbcTemplate jdbc) {
        return Gauge.builder("herald.publications.needs_decision",
                        () -> count(jdbc, "SELECT count(*) FROM publication_view WHERE needs_decision"))
                .description("publications waiting for an operator's decision")
                .register(registry);
    }

    private static double count(JdbcTemplate jdbc, String sql) {
        try {
            Long n = jdbc.queryForObject(sql, Long.class);
            return n == null ? 0 : n;
        } catch (DataAccessException unavailable) {
            return Double.NaN;
        }
    }
}
