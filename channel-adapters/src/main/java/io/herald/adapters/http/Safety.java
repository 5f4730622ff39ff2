package io.herald.adapters.http;

import io.herald.adapters.port.CapabilityReport;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.UnknownCause;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The port promises futures that never complete exceptionally. Should reading an answer fail in
 * an unforeseen way, the request may still have taken effect: the honest outcome is "unknown".
 */
public final class Safety {

    private static final Logger log = LoggerFactory.getLogger(Safety.class);

    private Safety() {
    }

    public static CompletableFuture<PublishOutcome> publish(CompletableFuture<PublishOutcome> call, String fingerprint,
                                                            String target, Instant startedAt, List<String> secrets) {
        return call.exceptionally(failure -> {
            String what = describe(failure, secrets);
            log.error("classifying the answer for {} failed: {}", target, what);
            return new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                    "The provider's answer could not be classified (" + what + "); the post may exist.",
                    new AttemptTrace(fingerprint, target, startedAt, false, null, null, null, 0));
        });
    }

    public static CompletableFuture<ReadBackOutcome> readBack(CompletableFuture<ReadBackOutcome> call, String target,
                                                              List<String> secrets) {
        return call.exceptionally(failure -> {
            String what = describe(failure, secrets);
            log.error("read-back at {} failed: {}", target, what);
            return new ReadBackOutcome.Unknown("The read-back failed unexpectedly (" + what + ").");
        });
    }

    public static CompletableFuture<CapabilityReport> probe(CompletableFuture<CapabilityReport> call, String target,
                                                            List<String> secrets) {
        return call.exceptionally(failure -> {
            String what = describe(failure, secrets);
            log.error("probe of {} failed: {}", target, what);
            Capability unknown = Capability.unavailable("The capability probe failed unexpectedly (" + what + ").");
            return new CapabilityReport(unknown, unknown);
        });
    }

    private static String describe(Throwable failure, List<String> secrets) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause.getClass().getSimpleName()
                + (cause.getMessage() == null ? "" : ": " + Redactor.redact(cause.getMessage(), secrets));
    }
}
