package io.herald.command.publishing;

import java.util.concurrent.TimeUnit;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventProcessor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * A graceful stop of the publishing core. After the web server has finished its requests and
 * before Axon stops, the dispatcher stops starting attempts (another node takes its segments) and
 * the provider calls already under way get to answer and have their answers recorded. The wait
 * is bounded by {@code spring.lifecycle.timeout-per-shutdown-phase}; a call that is still out
 * then ends as it would after a crash: its attempt's expiry row makes it an unknown outcome.
 */
@Component
class AttemptDrain implements SmartLifecycle {

    /** Between the web server's stop (DEFAULT_PHASE - 2048) and Axon's (DEFAULT_PHASE - 3072). */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 2560;
    private static final long POLL_MILLIS = 50;
    private static final Logger log = LoggerFactory.getLogger(AttemptDrain.class);

    private final AttemptCaller calls;
    private final ResultRecorder results;
    private final EventProcessingConfiguration processing;
    private volatile boolean running;

    AttemptDrain(AttemptCaller calls, ResultRecorder results, EventProcessingConfiguration processing) {
        this.calls = calls;
        this.results = results;
        this.processing = processing;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        drain();
    }

    @Override
    public void stop(Runnable callback) {
        Thread drainer = new Thread(() -> {
            try {
                drain();
            } finally {
                callback.run();
            }
        }, "herald-attempt-drain");
        // the lifecycle processor gives up on this phase after its timeout; the JVM need not wait for it
        drainer.setDaemon(true);
        drainer.start();
    }

    private void drain() {
        running = false;
        processing.eventProcessor(PublicationDispatcher.PROCESSING_GROUP).ifPresent(EventProcessor::shutDown);
        if (calls.inFlight() > 0 || !results.idle()) {
            log.info("stopping: waiting for {} provider calls in flight to answer", calls.inFlight());
        }
        try {
            while (calls.inFlight() > 0 || !results.idle()) {
                TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
