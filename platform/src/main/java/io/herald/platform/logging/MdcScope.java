package io.herald.platform.logging;

import java.util.Map;
import org.slf4j.MDC;

/**
 * Log context for the duration of a block: puts its values in the MDC and, on close, restores
 * exactly what was there before, so a pooled thread never carries one request's context into the
 * next. The one way Herald sets MDC values.
 */
public final class MdcScope implements AutoCloseable {

    /** The request's correlation id; also copied into the metadata of every command it dispatches. */
    public static final String CORRELATION_ID = "correlationId";
    /** Who acts: the API key's actor; also copied into command metadata. */
    public static final String ACTOR = "actor";
    /** The publication a log line is about, on the paths that act on one (intake, dispatcher, attempts). */
    public static final String PUBLICATION_ID = "publicationId";

    private final Map<String, String> previous;

    public MdcScope(Map<String, String> values) {
        previous = MDC.getCopyOfContextMap();
        values.forEach(MDC::put);
    }

    public static MdcScope with(String key, String value) {
        return new MdcScope(Map.of(key, value));
    }

    @Override
    public void close() {
        if (previous == null) {
            MDC.clear();
        } else {
            MDC.setContextMap(previous);
        }
    }
}
