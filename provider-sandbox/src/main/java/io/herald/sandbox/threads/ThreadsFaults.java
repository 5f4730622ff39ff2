package io.herald.sandbox.threads;

import io.herald.sandbox.ArmedFaults;
import java.util.Optional;
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

    private final ArmedFaults<Fault> armed = new ArmedFaults<>();

    public void add(Fault fault) {
        armed.add(fault, fault.times());
    }

    void clear() {
        armed.clear();
    }

    Optional<Fault> take(String userId, Operation operation) {
        return armed.take(fault -> fault.userId().equals(userId) && fault.operation() == operation);
    }
}
