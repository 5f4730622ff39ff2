package io.herald.command.publishing;

import java.util.concurrent.atomic.AtomicBoolean;
import org.axonframework.eventhandling.ErrorContext;
import org.axonframework.eventhandling.ErrorHandler;
import org.axonframework.eventhandling.PropagatingErrorHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The dispatcher's error handler: propagates, so a failed batch rolls back and is delivered again
 * (never skipped), and marks the retry to be split ({@link PublicationDispatcher}).
 */
@Component
public class DispatcherErrorHandler implements ErrorHandler {

    private static final Logger log = LoggerFactory.getLogger(DispatcherErrorHandler.class);

    private final AtomicBoolean splitting = new AtomicBoolean();

    @Override
    public void handleError(ErrorContext context) throws Exception {
        if (splitting.compareAndSet(false, true)) {
            log.warn("a dispatcher batch of {} events failed ({}); its retry hands the attempts to the sweep",
                    context.failedEvents().size(), context.error().toString());
        }
        PropagatingErrorHandler.instance().handleError(context);
    }

    /** Whether the batch being handled is the retry of a failed one. */
    boolean splitting() {
        return splitting.get();
    }

    /** A split batch committed: the next one starts its attempts itself again. */
    void splitBatchCommitted() {
        splitting.set(false);
    }
}
