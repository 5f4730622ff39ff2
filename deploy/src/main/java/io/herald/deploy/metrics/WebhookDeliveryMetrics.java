package io.herald.deploy.metrics;

import io.herald.query.webhook.WebhookOutbox;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * Gauges of the webhook outbox, counted by {@link GaugeRefresher}: deliveries still pending (not
 * yet answered 2xx, retries included) and those FAILED. A scrape reads the last count (NaN until
 * the first one, or while the database cannot be read).
 */
@Component
public class WebhookDeliveryMetrics implements RefreshedGauges {

    private final WebhookOutbox outbox;
    private volatile double pending = Double.NaN;
    private volatile double failed = Double.NaN;

    public WebhookDeliveryMetrics(MeterRegistry registry, WebhookOutbox outbox) {
        this.outbox = outbox;
        Gauge.builder("herald.webhooks.deliveries", this, m -> m.pending).tag("status", "pending")
                .description("webhook deliveries by status: pending (still being tried) or failed")
                .register(registry);
        Gauge.builder("herald.webhooks.deliveries", this, m -> m.failed).tag("status", "failed")
                .description("webhook deliveries by status: pending (still being tried) or failed")
                .register(registry);
    }

    @Override
    public void refresh() {
        try {
            WebhookOutbox.Counts counts = outbox.counts();
            pending = counts.pending();
            failed = counts.failed();
        } catch (DataAccessException unavailable) {
            pending = Double.NaN;
            failed = Double.NaN;
        }
    }
}
