package io.herald.sandbox.mastodon;

import io.herald.sandbox.ArmedFaults;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/** Scripted misbehaviour of the simulated instance, per account and operation, for the next {@code times} calls. */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class MastodonFaults {

    public enum Type {
        /** Carries the call out, answers only after {@code delayMillis}: a client read timeout with the effect done. */
        HOLD_AFTER_CREATE,
        /** Carries the call out, then closes the connection without a byte of answer. */
        RESET_AFTER_CREATE,
        /** Answers 500 without carrying the call out. */
        ERROR_500_BEFORE_CREATE,
        /** Carries the call out, answers 500. */
        ERROR_500_AFTER_CREATE,
        /** Answers 429 with {@code X-RateLimit-Reset} {@code delayMillis} from now. */
        RATE_LIMIT,
        /** Answers 200 with a body that is no JSON, after carrying the call out. */
        GARBLED_AFTER_CREATE
    }

    public enum Operation {
        /** {@code POST /api/v1/statuses} */
        CREATE,
        /** {@code POST /api/v2/media} */
        UPLOAD,
        /** {@code PUT /api/v1/statuses/:id} */
        EDIT,
        /** {@code DELETE /api/v1/statuses/:id} */
        DELETE,
        /** reading statuses (one, its source, or an account's list) */
        READ
    }

    /** One fault on the account {@code accountId}. */
    public record Fault(String accountId, Operation operation, Type type, long delayMillis, int times) {
    }

    private final ArmedFaults<Fault> armed = new ArmedFaults<>();

    public void add(Fault fault) {
        armed.add(fault, fault.times());
    }

    Optional<Fault> take(String accountId, Operation operation) {
        return armed.take(fault -> fault.accountId().equals(accountId) && fault.operation() == operation);
    }
}
