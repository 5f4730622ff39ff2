package io.herald.sandbox.bluesky;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
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
        RATE_LIMIT
    }

    /** One fault: {@code method} is an XRPC method name ({@code com.atproto.repo.putRecord}). */
    public record Fault(String handle, String method, Type type, long delayMillis, int times) {
    }

    private record Armed(Fault fault, AtomicInteger remaining) {
    }

    private final List<Armed> armed = new CopyOnWriteArrayList<>();

    public void add(Fault fault) {
        armed.add(new Armed(fault, new AtomicInteger(Math.max(1, fault.times()))));
    }

    /** The fault a call of {@code method} on {@code handle}'s account takes, if any. */
    Optional<Fault> take(String handle, String method) {
        for (Armed a : armed) {
            if (a.fault().handle().equals(handle) && a.fault().method().equals(method)
                    && a.remaining().getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                return Optional.of(a.fault());
            }
        }
        return Optional.empty();
    }

    public void clear() {
        armed.clear();
    }
}
