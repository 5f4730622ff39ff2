package io.herald.adapters.http;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One provider call as an adapter describes it. Credentials travel only in {@code headers} and
 * {@code uri}; the {@code fingerprint} was computed from the request without them, and
 * {@code secrets} lists every credential value so that provider answers echoing one can be redacted.
 *
 * @param target      the provider-side target for the trace (Page id, author URN, site URL)
 * @param contentType null when there is no body
 * @param binaryBody  the body as bytes (an image, a multipart form), instead of {@code body}; null otherwise
 * @param workspaceId the workspace the call is made for, where a workspace-supplied URL is called: its own
 *                    trusted hosts ({@code herald.outbound.allowed-hosts-by-workspace}) apply; null otherwise
 */
public record OutgoingRequest(
        String method,
        URI uri,
        Map<String, String> headers,
        String body,
        String contentType,
        String fingerprint,
        String target,
        List<String> secrets,
        byte[] binaryBody,
        String workspaceId) {

    public OutgoingRequest(String method, URI uri, Map<String, String> headers, String body, String contentType,
                           String fingerprint, String target, List<String> secrets) {
        this(method, uri, headers, body, contentType, fingerprint, target, secrets, null, null);
    }

    public OutgoingRequest(String method, URI uri, Map<String, String> headers, String body, String contentType,
                           String fingerprint, String target, List<String> secrets, byte[] binaryBody) {
        this(method, uri, headers, body, contentType, fingerprint, target, secrets, binaryBody, null);
    }

    /** The same call, made for a workspace (see {@code workspaceId}). */
    public OutgoingRequest forWorkspace(String workspace) {
        return new OutgoingRequest(method, uri, headers, body, contentType, fingerprint, target, secrets, binaryBody,
                workspace);
    }

    public boolean hasBody() {
        return body != null || binaryBody != null;
    }

    /** The bytes to send: the binary body, or the text body in UTF-8. */
    public byte[] bodyBytes() {
        return binaryBody != null ? binaryBody : body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    public OutgoingRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(uri, "uri");
        headers = Map.copyOf(new LinkedHashMap<>(headers));
        secrets = secrets.stream().filter(Objects::nonNull).filter(s -> !s.isBlank()).toList();
    }
}
