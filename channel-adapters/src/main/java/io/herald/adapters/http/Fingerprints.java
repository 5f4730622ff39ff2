package io.herald.adapters.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.herald.contracts.id.IdempotencyKeys;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * SHA-256 of a canonical request: method, path, and the non-secret parameters or body with keys
 * sorted. Two attempts that sent the same thing have the same fingerprint whatever the token.
 */
public final class Fingerprints {

    private static final ObjectMapper SORTED = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private Fingerprints() {
    }

    /** For form-encoded or query parameters; the caller leaves credentials out. */
    public static String ofParams(String method, String path, Map<String, String> params) {
        String canonical = new TreeMap<>(params).entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("\n"));
        return IdempotencyKeys.sha256Hex(method + "\n" + path + "\n" + canonical);
    }

    /** For a JSON body: serialised again with sorted keys so field order does not matter. */
    public static String ofJson(String method, String path, JsonNode body) {
        try {
            Object asMap = SORTED.treeToValue(body, Object.class);
            return IdempotencyKeys.sha256Hex(method + "\n" + path + "\n" + SORTED.writeValueAsString(asMap));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("request body is not serialisable", e);
        }
    }
}
