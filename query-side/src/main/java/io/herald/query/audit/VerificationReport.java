package io.herald.query.audit;

import java.util.List;

/** What a verifier run replayed and what it found; clean when {@code breaches} is empty. */
public record VerificationReport(long publications, long events, List<Breach> breaches) {

    public boolean clean() {
        return breaches.isEmpty();
    }
}
