package io.herald.deploy.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Gauges of what is waiting, summed from the publication counts (a few rows per workspace, channel
 * and status, kept with the publication view) by {@link GaugeRefresher}:
 * publications whose outcome is unknown, and those in the decision queue. A scrape reads the last
 * count (NaN until the first one, or while the database cannot be read). Alongside the counters
 * and timers the attempt runner records ({@code herald.attempts}, {@code herald.attempt.duration},
 * {@code herald.read_backs}).
 */
@Component
public class OpenCasesMetrics implements RefreshedGauges {

    private final JdbcTemplate jdbc;
    private volatile double outcomeUnknown = Double.NaN;
    private volatile double needsDecision = Double.NaN;

    public OpenCasesMetrics(MeterRegistry registry, JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        Gauge.builder("herald.publications.outcome_unknown", this, m -> m.outcomeUnknown)
                .description("publications whose last attempt's outcome is unknown")
                .register(registry);
        Gauge.builder("herald.publications.needs_decision", this, m -> m.needsDecision)
                .description("publications waiting for an operator's decision")
                .register(registry);
    }

    @Override
    public void refresh() {
        try {
            Map<String, Object> counts = jdbc.queryForMap("""
                    SELECT coalesce(sum(publications) FILTER (WHERE status = 'OUTCOME_UNKNOWN'), 0) AS outcome_unknown,
                           coalesce(sum(waiting), 0) AS needs_decision
                    FROM publication_counts""");
            outcomeUnknown = ((Number) counts.get("outcome_unknown")).doubleValue();
            needsDecision = ((Number) counts.get("needs_decision")).doubleValue();
        } catch (DataAccessException unavailable) {
            outcomeUnknown = Double.NaN;
            needsDecision = Double.NaN;
        }
    }
}
