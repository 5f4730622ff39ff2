package io.herald.adapters.http;

import io.herald.adapters.port.PublishOutcome;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.UnknownCause;
import java.net.http.HttpHeaders;
import java.time.Instant;
import java.util.Optional;

/**
 * How one HTTP exchange with a provider ended, before any provider-specific reading: an answer,
 * a request that provably never left, or a request that left and got no answer.
 */
public sealed interface Exchange {

    OutgoingRequest request();

    /** When the request was handed to the network, null when it never left. */
    Instant sentAt();

    long durationMillis();

    /**
     * The provider answered. {@code body} is raw; redact before quoting it. An answer larger than
     * {@link ProviderHttp#MAX_ANSWER_BYTES} is not read: its body is empty and {@code bodyTooLarge}
     * is set, so it classifies as an answer that could not be parsed.
     */
    record Answered(OutgoingRequest request, int status, HttpHeaders headers, String body, Instant sentAt,
                    long durationMillis, boolean bodyTooLarge) implements Exchange {

        public Optional<String> header(String name) {
            return headers.firstValue(name);
        }

        public boolean success() {
            return status >= 200 && status < 300;
        }
    }

    /** No answer came: the request never left, or it left and nothing usable came back. */
    sealed interface Unanswered extends Exchange {

        /** What happened, for a detail or reason; never carries a credential. */
        String detail();

        /** What a write that got no answer amounts to: nothing written, or no proof either way. */
        default PublishOutcome writeOutcome() {
            if (this instanceof NoAnswer noAnswer) {
                return new PublishOutcome.OutcomeUnknown(noAnswer.cause(), detail(), Traces.of(this, null, null));
            }
            return new PublishOutcome.Failed(FailureKind.NOT_SENT, null, detail(), null, Traces.of(this, null, null));
        }
    }

    /** Connection refused, DNS failure, TLS handshake failure, connect timeout: nothing was written. */
    record NotSent(OutgoingRequest request, String detail, long durationMillis) implements Unanswered {
        @Override
        public Instant sentAt() {
            return null;
        }
    }

    /** The request may have reached the provider; nothing usable came back. */
    record NoAnswer(OutgoingRequest request, UnknownCause cause, String detail, Instant sentAt, long durationMillis)
            implements Unanswered {
    }
}
