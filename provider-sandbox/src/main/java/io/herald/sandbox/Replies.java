package io.herald.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.platform.wire.Json;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.ServletResponseWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Field;
import java.util.Optional;
import java.util.function.LongConsumer;
import java.util.function.Supplier;
import org.apache.catalina.connector.ResponseFacade;
import org.apache.coyote.ActionCode;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.context.request.async.DeferredResult;

/**
 * How the simulators answer: always asynchronously (a {@link DeferredResult} completed by the
 * sandbox's timer), so thousands of slow requests hold connections, not servlet threads.
 */
public final class Replies {

    /** How long a request is held when the sandbox plays "no answer" (the client gives up first). */
    public static final long HOLD_MILLIS = 10 * 60 * 1000L;

    private Replies() {
    }

    public static ResponseEntity<String> json(HttpStatus status, JsonNode body, HttpHeaders headers) {
        return ResponseEntity.status(status).headers(headers).contentType(MediaType.APPLICATION_JSON)
                .body(Json.write(body));
    }

    public static ResponseEntity<String> json(int status, JsonNode body, HttpHeaders headers) {
        return json(HttpStatus.valueOf(status), body, headers);
    }

    /** Answers after the global latency plus {@code extraMillis}; the supplier runs at answer time. */
    public static DeferredResult<ResponseEntity<String>> after(SandboxState state, long extraMillis,
                                                        Supplier<ResponseEntity<String>> answer) {
        DeferredResult<ResponseEntity<String>> result = new DeferredResult<>(HOLD_MILLIS + extraMillis);
        long delay = state.latencyMillis() + extraMillis;
        if (delay <= 0) {
            result.setResult(answer.get());
            return result;
        }
        state.answerPending();
        state.later(delay, () -> {
            state.answerSent();
            result.setResult(answer.get());
        });
        return result;
    }

    public static DeferredResult<ResponseEntity<String>> now(SandboxState state, ResponseEntity<String> answer) {
        return after(state, 0, () -> answer);
    }

    /**
     * Has the request's effect and answers, as the fault taken for it says: at once without one;
     * DELAY_THEN_CREATE acts now and answers late, CREATE_AFTER acts late and never answers,
     * ERROR_5XX_WITH_EFFECT acts and answers the provider's server error. The answer is built
     * after the effect, so it shows it. Faults that act before any effect are the caller's.
     */
    public static DeferredResult<ResponseEntity<String>> withEffect(SandboxState state, Optional<SandboxFault> fault,
                                                             Runnable effect, Supplier<ResponseEntity<String>> answer,
                                                             Supplier<ResponseEntity<String>> serverError) {
        return withLateEffect(state, fault, lateBy -> effect.run(), answer, serverError);
    }

    /**
     * As {@link #withEffect}, with the effect told how many milliseconds after the request it
     * acts (0 unless CREATE_AFTER): a post created late is created at the later time.
     */
    public static DeferredResult<ResponseEntity<String>> withLateEffect(SandboxState state, Optional<SandboxFault> fault,
                                                                 LongConsumer effect,
                                                                 Supplier<ResponseEntity<String>> answer,
                                                                 Supplier<ResponseEntity<String>> serverError) {
        if (fault.isEmpty()) {
            effect.accept(0);
            return now(state, answer.get());
        }
        SandboxFault f = fault.get();
        return switch (f.type()) {
            case DELAY_THEN_CREATE -> {
                effect.accept(0);
                ResponseEntity<String> late = answer.get();
                yield after(state, f.delayMillis(), () -> late);
            }
            case CREATE_AFTER -> {
                state.later(f.delayMillis(), () -> effect.accept(f.delayMillis()));
                yield hold(state);
            }
            case ERROR_5XX_WITH_EFFECT -> {
                effect.accept(0);
                yield now(state, serverError.get());
            }
            default -> throw new IllegalStateException("fault " + f.type() + " acts before the effect");
        };
    }

    /** Never answers; after {@link #HOLD_MILLIS} the held exchange is dropped with a 504. */
    public static DeferredResult<ResponseEntity<String>> hold(SandboxState state) {
        DeferredResult<ResponseEntity<String>> result =
                new DeferredResult<>(HOLD_MILLIS, ResponseEntity.status(HttpStatus.GATEWAY_TIMEOUT).build());
        state.hold(result);
        return result;
    }

    /**
     * Closes the connection at once, without a byte of answer: what a client sees when a proxy or
     * the provider drops the connection after reading the request. Returns null, which tells
     * Spring MVC that the response is handled.
     */
    public static <T> DeferredResult<T> closeConnection(HttpServletResponse response) {
        ServletResponse unwrapped = response;
        while (unwrapped instanceof ServletResponseWrapper wrapper) {
            unwrapped = wrapper.getResponse();
        }
        if (!(unwrapped instanceof ResponseFacade facade)) {
            throw new IllegalStateException("closing a connection needs Tomcat; got " + unwrapped.getClass());
        }
        try {
            Field field = ResponseFacade.class.getDeclaredField("response");
            field.setAccessible(true);
            org.apache.catalina.connector.Response catalina = (org.apache.catalina.connector.Response) field.get(facade);
            catalina.getCoyoteResponse().action(ActionCode.CLOSE_NOW, null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach Tomcat's connection", e);
        }
        return null;
    }
}
