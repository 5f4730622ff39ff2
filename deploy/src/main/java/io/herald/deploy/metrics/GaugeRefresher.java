package io.herald.deploy.metrics;

import org.springframework.boot.context.properties.EnableConfigurationProperties;

import io.herald.platform.threads.BackgroundThreads;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Refreshes every {@link RefreshedGauges} every {@code herald.metrics.refresh-interval} (15 s by
 * default) on one background thread of the lowest priority, starting when the application is
 * ready (the database is migrated by then).
 */
@Component
@EnableConfigurationProperties(MetricsProperties.class)
public class GaugeRefresher implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(GaugeRefresher.class);

    private final List<RefreshedGauges> gauges;
    private final Duration interval;
    private final ScheduledExecutorService thread =
            Executors.newSingleThreadScheduledExecutor(BackgroundThreads.named("herald-gauges"));

    GaugeRefresher(List<RefreshedGauges> gauges, MetricsProperties properties) {
        this.gauges = gauges;
        this.interval = properties.refreshInterval();
    }

    @EventListener(ApplicationReadyEvent.class)
    void start() {
        thread.scheduleWithFixedDelay(this::refreshNow, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Refreshes all gauges now, in the calling thread; one failing source leaves the others fresh. */
    public synchronized void refreshNow() {
        for (RefreshedGauges source : gauges) {
            try {
                source.refresh();
            } catch (RuntimeException e) {
                log.warn("could not refresh the gauges of {}: {}", source.getClass().getSimpleName(), e.toString());
            }
        }
    }

    @Override
    public void destroy() {
        thread.shutdownNow();
    }
}
