package io.herald.adapters.port;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * An OAuth 2.0 authorization-code connection (RFC 6749 §4.1, with PKCE, RFC 7636, where the
 * provider supports it): the admin's browser goes to {@link #authorize}'s address, the provider
 * sends it back to Herald's callback with a code, and {@link #exchange} turns that code into the
 * fields of the connection a {@code PUT} would make — one set, or several for the admin to choose
 * from (which Page, member or organization). The command side keeps the {@code state}, the PKCE
 * verifier and the choices; the plug-in only speaks to its provider.
 */
public non-sealed interface OAuthFlow extends ConnectFlow {

    /**
     * The configuration keys this flow still needs (the provider app's client id and secret), empty
     * when it can run: said once at start-up, and in the refusal of a connect while any is missing.
     */
    List<String> missingConfiguration();

    /**
     * The record whose fields a connect's start carries besides {@code type} (Mastodon's
     * {@code instanceUrl}), each described by its {@link FormField}; null when the start needs none.
     */
    default Class<? extends Record> startForm() {
        return null;
    }

    /**
     * The address the admin's browser is sent to. May call the provider first (Mastodon registers
     * Herald as an app on the instance, once per instance, kept in {@code apps}).
     */
    CompletableFuture<Authorization> authorize(Start start, OAuthApps apps);

    /**
     * Exchanges the code (and the long-lived token exchanges that follow) into the connections the
     * grant allows. A failure completes with a {@code HeraldRejection} {@code oauth_failed} carrying
     * the provider's reason, never a code, token or secret.
     */
    CompletableFuture<List<Choice>> exchange(Callback callback, OAuthApps apps);

    /**
     * Whether the provider's {@code error} on the browser's return means the user declined (nothing
     * is stored, and the console says so): OAuth's {@code access_denied}, unless the provider has
     * words of its own.
     */
    default boolean declined(String error) {
        return "access_denied".equals(error);
    }

    /**
     * A connect request: {@code fields} are its own fields besides {@code type} (Mastodon's
     * {@code instanceUrl}); {@code codeChallenge} is the S256 PKCE challenge.
     */
    record Start(String workspace, ObjectNode fields, URI redirectUri, String state, String codeChallenge) {
    }

    /**
     * Where to send the browser; {@code carried} is what the exchange needs again (an instance's
     * address): kept with the state, never a secret.
     */
    record Authorization(URI authorizeUrl, ObjectNode carried) {
    }

    /** The provider's answer to the browser's return: its code, and what {@link Authorization#carried} kept. */
    record Callback(String workspace, String code, String codeVerifier, URI redirectUri, ObjectNode carried) {

        @Override
        public String toString() {
            return "Callback[" + workspace + ", code redacted]";
        }
    }

    /**
     * One connection the grant allows: {@code kind} is {@code page}, {@code member}, {@code organization}
     * or {@code account}; {@code connection} the body of the {@code PUT} that stores it, secrets
     * included (kept encrypted until chosen, never shown).
     */
    record Choice(String id, String name, String kind, ObjectNode connection) {

        @Override
        public String toString() {
            return "Choice[" + kind + " " + id + ", connection redacted]";
        }
    }
}
