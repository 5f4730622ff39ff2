package io.herald.contracts.publication;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Where the published item lives at the provider: its id and, where known, its URL. A URL is kept
 * only when it is an absolute {@code http(s)} URL: a provider (or an operator's decision) could
 * return {@code javascript:…}, and every event, view and replay goes through this constructor.
 */
public record ProviderRef(String id, String url) {

    public ProviderRef {
        url = webUrlOrNull(url);
    }

    static String webUrlOrNull(String url) {
        if (url == null) {
            return null;
        }
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme();
            boolean web = "http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme);
            return web && uri.getHost() != null ? url : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }
}
