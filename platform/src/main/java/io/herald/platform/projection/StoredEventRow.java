package io.herald.platform.projection;

/**
 * One event as the store holds it, not deserialized: what a {@link StoredEventFold} is handed.
 *
 * @param globalIndex   the store-wide position
 * @param aggregateType the aggregate's type, e.g. {@code Publication}
 * @param timestamp     as the store keeps it (ISO-8601)
 * @param payload       the stored payload's bytes (JSON), as written, never upcast
 */
public record StoredEventRow(long globalIndex, String aggregateType, String aggregateId, long sequence,
                             String timestamp, String payloadType, String payloadRevision, byte[] payload) {
}
