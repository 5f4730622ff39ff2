package io.herald.sandbox.bluesky;

import io.herald.sandbox.ArmedFaults;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/** Scripted misbehaviour of the simulated PDS, per account and XRPC method, for the next {@code times} calls. */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class BlueskyFaults {

    public enum Type {
        /** Carries the call out, answers only after {@code delayMillis}: a client read timeout with the effect done. */
        DELAY_ANSWER,
        /** Carries the call out, answers 502 (as an HTML page, like a proxy in front of a PDS). */
        ERROR_5XX_WITH_EFFECT,
        /** Answers 500 InternalServerError without carrying the call out. */
        ERROR_5XX_NO_EFFECT,
        /** Answers 429 RateLimitExceeded with {@code RateLimit-Reset} {@code delayMillis} from now. */
        RATE_LIMIT,
        /** Carries the call out, answers 200 with a JSON object that names no record (no uri, no cid). */
        OK_WITHOUT_RECORD
    }

    /** One fault: {@code method} is an XRPC method name ({@code com.atproto.repo.putRecord}). */
    public record Fault(String handle, String method, Type type, long delayMillis, int times) {
    }

    private final ArmedFaults<Fault> armed = new ArmedFaults<>();

    public void add(Fault fault) {
        armed.add(fault, fault.times());
    }

    /** The fault a call of {@code method} on {@code handle}'s account takes, if any. */
    Optional<Fault> take(String handle, String method) {
        return armed.take(fault -> fault.handle().equals(handle) && fault.method().equals(method));
    }

    public void clear() {
        armed.clear();
    }
}
