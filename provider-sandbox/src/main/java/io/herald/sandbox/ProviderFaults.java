package io.herald.sandbox;

import jakarta.servlet.http.HttpServletResponse;
import java.util.Optional;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.springframework.http.ResponseEntity;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * How one provider's requests meet the faults scripted for their target, written once for the
 * three simulators: which fault a request takes, the faults that answer before any effect, those
 * that answer a read, and those that come with the effect. Each provider gives its own answers.
 */
public final class ProviderFaults {

    /** A provider's own answers to the injected faults. */
    public interface Answers {

        /** ERROR_5XX_*: the provider's server error. */
        ResponseEntity<String> serverError();

        /** RATE_LIMIT: the provider's throttle answer for the fault's target. */
        ResponseEntity<String> rateLimited(SandboxFault fault);

        /** VALIDATION_ERROR on a write; null where the provider has none, and the fault does not act. */
        default ResponseEntity<String> invalid() {
            return null;
        }
    }

    private final SandboxState state;
    private final String provider;
    private final Answers answers;

    public ProviderFaults(SandboxState state, String provider, Answers answers) {
        this.state = state;
        this.provider = provider;
        this.answers = answers;
    }

    /** The fault this request takes at the target; none for a target that is not known. */
    public Optional<SandboxFault> take(String target, SandboxFault.Operation operation) {
        return target == null ? Optional.empty() : state.faults().take(provider, target, operation);
    }

    /** The rest of a write, given the fault it took (or none). */
    @FunctionalInterface
    public interface Write<E extends Exception> {
        DeferredResult<ResponseEntity<String>> answer(Optional<SandboxFault> fault) throws E;
    }

    /**
     * A write: the fault it takes answers first when it acts before any effect (with
     * {@code tokenError} for TOKEN_ERROR); otherwise {@code request} answers, given the fault
     * for {@link #withEffect}.
     */
    public <E extends Exception> DeferredResult<ResponseEntity<String>> write(String target, SandboxFault.Operation operation,
                                                                       HttpServletResponse response,
                                                                       Supplier<ResponseEntity<String>> tokenError,
                                                                       Write<E> request) throws E {
        Optional<SandboxFault> fault = take(target, operation);
        if (fault.isPresent()) {
            SandboxFault f = fault.get();
            if (f.type() == SandboxFault.Type.RESET_AFTER_READ) {
                return Replies.closeConnection(response);
            }
            ResponseEntity<String> early = switch (f.type()) {
                case ERROR_5XX_NO_EFFECT -> answers.serverError();
                case RATE_LIMIT -> answers.rateLimited(f);
                case TOKEN_ERROR -> tokenError.get();
                case VALIDATION_ERROR -> answers.invalid();
                default -> null;
            };
            if (early != null) {
                return Replies.now(state, early);
            }
        }
        return request.answer(fault);
    }

    /** A read answered as a READ fault of the target says; the answer is built when it is sent. */
    public DeferredResult<ResponseEntity<String>> read(String target, HttpServletResponse response,
                                                Supplier<ResponseEntity<String>> tokenError,
                                                Supplier<ResponseEntity<String>> answer) {
        Optional<SandboxFault> fault = take(target, SandboxFault.Operation.READ);
        return fault.isEmpty() ? Replies.now(state, answer.get()) : faulted(fault.get(), response, tokenError, answer);
    }

    /** How a READ fault answers a read: DELAY_THEN_CREATE answers late, CREATE_AFTER never. */
    public DeferredResult<ResponseEntity<String>> faulted(SandboxFault fault, HttpServletResponse response,
                                                   Supplier<ResponseEntity<String>> tokenError,
                                                   Supplier<ResponseEntity<String>> answer) {
        return switch (fault.type()) {
            case RESET_AFTER_READ -> Replies.closeConnection(response);
            case CREATE_AFTER -> Replies.hold(state);
            case DELAY_THEN_CREATE -> Replies.after(state, fault.delayMillis(), answer);
            case RATE_LIMIT -> Replies.now(state, answers.rateLimited(fault));
            case TOKEN_ERROR -> Replies.now(state, tokenError.get());
            default -> Replies.now(state, answers.serverError());
        };
    }

    /** The write's effect and answer, as its fault says (see {@link Replies#withEffect}). */
    public DeferredResult<ResponseEntity<String>> withEffect(Optional<SandboxFault> fault, Runnable effect,
                                                      Supplier<ResponseEntity<String>> answer) {
        return Replies.withEffect(state, fault, effect, answer, answers::serverError);
    }

    /** As {@link #withEffect}, for a post that CREATE_AFTER creates at the later time. */
    public DeferredResult<ResponseEntity<String>> withLateEffect(Optional<SandboxFault> fault, LongConsumer effect,
                                                          Supplier<ResponseEntity<String>> answer) {
        return Replies.withLateEffect(state, fault, effect, answer, answers::serverError);
    }
}
