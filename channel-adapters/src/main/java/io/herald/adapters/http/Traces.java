package io.herald.adapters.http;

import io.herald.contracts.publication.AttemptTrace;

/** Builds the {@link AttemptTrace} of an exchange: what was sent, and what came back if anything. */
public final class Traces {

    private Traces() {
    }

    public static AttemptTrace of(Exchange exchange, String providerCode, String providerTraceId) {
        OutgoingRequest request = exchange.request();
        if (exchange instanceof Exchange.Answered answered) {
            return new AttemptTrace(request.fingerprint(), request.target(), answered.sentAt(), true,
                    answered.status(), providerCode, providerTraceId, answered.durationMillis());
        }
        return new AttemptTrace(request.fingerprint(), request.target(), exchange.sentAt(), false, null, null, null,
                exchange.durationMillis());
    }

    /** For a request refused before any call (e.g. an action the channel does not support). */
    public static AttemptTrace notCalled(String fingerprint, String target) {
        return new AttemptTrace(fingerprint, target, null, false, null, null, null, 0);
    }
}
