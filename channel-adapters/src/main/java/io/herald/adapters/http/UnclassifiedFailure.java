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
 * What an exception while a call's answer was classified becomes. The port promises futures that
 * never complete exceptionally; should reading an answer fail in an unforeseen way, the request
 * may still have taken effect: the honest outcome is "unknown". The exception's message is
 * redacted before it is logged or quoted.
 */
public final class UnclassifiedFailure {

    private static final Logger log = LoggerFactory.getLogger(UnclassifiedFailure.class);

    private UnclassifiedFailure() {
    }

    public static CompletableFuture<PublishOutcome> asPublishOutcome(CompletableFuture<PublishOutcome> call,
                                                                     String fingerprint, String target,
                                                                     Instant startedAt, List<String> secrets) {
        return call.exceptionally(failure -> {
            String what = describe(failure, secrets);
            log.error("classifying the answer for {} failed: {}", target, what);
            return new PublishOutcome.OutcomeUnknown(UnknownCause.UNPARSABLE_RESPONSE,
                    "The provider's answer could not be classified (" + what + "); the post may exist.",
                    new AttemptTrace(fingerprint, target, startedAt, false, null, null, null, 0));
        });
    }

    public static CompletableFuture<ReadBackOutcome> asReadBackOutcome(CompletableFuture<ReadBackOutcome> call,
                                                                       String target, List<String> secrets) {
        return call.exceptionally(failure -> {
            String what = describe(failure, secrets);
            log.error("read-back at {} failed: {}", target, what);
            return new ReadBackOutcome.Unknown("The read-back failed unexpectedly (" + what + ").");
        });
    }

    public static CompletableFuture<CapabilityReport> asCapabilityReport(CompletableFuture<CapabilityReport> call,
                                                                         String target, List<String> secrets) {
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
