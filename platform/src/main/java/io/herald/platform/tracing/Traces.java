package io.herald.platform.tracing;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.HashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * W3C trace context where no instrumentation carries it: from a request into the metadata of its
 * commands and events, and from there to the provider calls and webhook deliveries that run later
 * on other threads (or another node). The context travels as a {@code traceparent} value; the
 * tracer in use (OpenTelemetry's, through Micrometer Tracing) decides sampling and export. Without
 * a tracer every method here is a no-op.
 */
@Component
public class Traces {

    /** The W3C header, and the metadata key of commands, events and webhook rows that carries it. */
    public static final String TRACEPARENT = "traceparent";

    private final Tracer tracer;
    private final Propagator propagator;

    @Autowired
    public Traces(ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator) {
        this(tracer.getIfAvailable(() -> Tracer.NOOP), propagator.getIfAvailable(() -> Propagator.NOOP));
    }

    private Traces(Tracer tracer, Propagator propagator) {
        this.tracer = tracer;
        this.propagator = propagator;
    }

    /** No tracing: no spans, no {@code traceparent}. */
    public static Traces none() {
        return new Traces(Tracer.NOOP, Propagator.NOOP);
    }

    /** The current span as a {@code traceparent}; null outside any span. */
    public String current() {
        Span span = tracer.currentSpan();
        return span == null ? null : traceparent(span);
    }

    /**
     * Starts a client span (a call Herald makes) as a child of {@code traceparent}, or of a new
     * trace without one. The caller ends it when the call is answered.
     */
    public Span startClient(String name, String traceparent) {
        Span.Builder builder = traceparent == null ? tracer.spanBuilder()
                : propagator.extract(Map.of(TRACEPARENT, traceparent), Map::get);
        return builder.name(name).kind(Span.Kind.CLIENT).start();
    }

    /** Makes the span current on this thread (log lines carry its ids) until the scope closes. */
    public Tracer.SpanInScope inScope(Span span) {
        return tracer.withSpan(span);
    }

    /** The span's {@code traceparent}, for the header of the call it stands for. */
    public String traceparent(Span span) {
        Map<String, String> carrier = new HashMap<>(4);
        propagator.inject(span.context(), carrier, Map::put);
        return carrier.get(TRACEPARENT);
    }
}
