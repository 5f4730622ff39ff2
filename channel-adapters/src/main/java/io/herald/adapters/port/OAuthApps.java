package io.herald.adapters.port;

import java.util.Optional;

/**
 * The OAuth apps Herald registered on providers that register apps per server (Mastodon's
 * {@code POST /api/v1/apps}): one per server and callback address, kept so that each server
 * registers Herald once. The client secret is stored encrypted.
 */
public interface OAuthApps {

    Optional<App> find(String server, String redirectUri);

    void save(String server, String redirectUri, App app);

    /** A registered app's client credentials. */
    record App(String clientId, String clientSecret) {

        @Override
        public String toString() {
            return "App[" + clientId + ", secret redacted]";
        }
    }
}
