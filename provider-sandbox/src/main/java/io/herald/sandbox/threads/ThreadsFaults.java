package io.herald.sandbox.threads;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/** Scripted misbehaviour of the simulated Threads API, per user and operation, for the next {@code times} calls. */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class ThreadsFaults {

    public enum Type {
        /** Publishes, then answers only after {@code delayMillis}: a client read timeout with the post made. */
        HOLD_AFTER_PUBLISH,
        /** Holds the request {@code delayMillis} and answers 500 without publishing: a timeout with nothing made. */
        HOLD_BEFORE_PUBLISH,
        /** Publishes, then answers 400 code 24 subcode 4279009 "Media Not Found" (the ambiguous answer). */
        MEDIA_NOT_FOUND_AFTER_PUBLISH,
        /** The container ends in ERROR instead of FINISHED (its {@code error_message} says why). */
        CONTAINER_ERROR,
        /** Answers 500 without any effect. */
        ERROR_500
    }

    public enum Operation {
        /** {@code POST /{user}/threads} */
        CREATE_CONTAINER,
        /** {@code POST /{user}/threads_publish} */
        PUBLISH,
        /** {@code DELETE /{media}} */
        DELETE,
        /** any read */
        READ
    }

    /** One fault on the user {@code userId}. */
    public record Fault(String userId, Operation operation, Type type, long delayMillis, int times) {
    }

    private record Armed(Fault fault, AtomicInteger remaining) {
    }

    private final List<Armed> armed = new CopyOnWriteArrayList<>();

    public void add(Fault fault) {
        armed.add(new Armed(fault, new AtomicInteger(Math.max(1, fault.times()))));
    }

    void clear() {
        armed.clear();
    }

    Optional<Fault> take(String userId, Operation operation) {
        for (Armed a : armed) {
            if (a.fault().userId().equals(userId) && a.fault().operation() == operation
                    && a.remaining().getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                return Optional.of(a.fault());
            }
        }
        return Optional.empty();
    }
}
