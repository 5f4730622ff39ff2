package io.herald.adapters.http;

import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One line per provider call with the publication id and attempt number, since the call
 * completes on an HTTP client thread where the caller's MDC is not present.
 */
public final class OutcomeLog {

    private static final Logger log = LoggerFactory.getLogger(OutcomeLog.class);

    private OutcomeLog() {
    }

    public static void publish(String provider, PublishRequest request, PublishOutcome outcome) {
        if (outcome == null) {
            return;
        }
        var trace = outcome.trace();
        String kind;
        if (outcome instanceof PublishOutcome.Published) {
            kind = "published";
        } else if (outcome instanceof PublishOutcome.Failed failed) {
            kind = "failed " + failed.kind();
        } else if (outcome instanceof PublishOutcome.DuplicateRefused) {
            kind = "duplicate refused";
        } else if (outcome instanceof PublishOutcome.AuthLost) {
            kind = "credentials expired or revoked";
        } else if (outcome instanceof PublishOutcome.VersionRetired retired) {
            kind = "API version " + retired.version() + " retired";
        } else {
            kind = "outcome unknown " + ((PublishOutcome.OutcomeUnknown) outcome).cause();
        }
        log.info("{} publication {} attempt {} on {}: {} (status {}, provider code {}, trace id {}, {} ms)",
                provider, request.publicationId().value(), request.attemptNo(), trace.target(), kind,
                trace.httpStatus(), trace.providerCode(), trace.providerTraceId(), trace.durationMillis());
    }
}
