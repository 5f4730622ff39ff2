package io.herald.adapters.wordpress;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Redactor;
import io.herald.adapters.http.Texts;
import io.herald.adapters.port.ChannelConnection;
import io.herald.platform.wire.Forms;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A site's REST API as every step reaches it: {@code {site}/?rest_route=/wp/v2/{route}}, which
 * works on every WordPress, with or without pretty permalinks (whereas {@code /wp-json/} needs
 * rewrite rules), with the user's Application Password as Basic credentials.
 */
final class WordPressRest {

    static final String MU_PLUGIN_HINT = "install the Herald mu-plugin (wordpress/herald-publication-id/) on the site";
    static final String TOO_LARGE = "the answer was larger than 1 MiB and was not read";

    private WordPressRest() {
    }

    /** {@code {site}/?rest_route=/wp/v2/{route}} plus query parameters. */
    static URI route(String siteUrl, String route, Map<String, String> query) {
        String site = siteUrl.endsWith("/") ? siteUrl.substring(0, siteUrl.length() - 1) : siteUrl;
        StringBuilder uri = new StringBuilder(site).append("/?rest_route=/wp/v2/").append(route);
        query.forEach((k, v) -> uri.append('&').append(Forms.enc(k)).append('=').append(Forms.enc(v)));
        return URI.create(uri.toString());
    }

    static boolean validSite(String siteUrl) {
        if (Texts.blank(siteUrl)) {
            return false;
        }
        try {
            URI uri = URI.create(siteUrl);
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null
                    && uri.getRawQuery() == null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String password(ChannelConnection connection) {
        String password = connection.secrets(WordPressSecrets.class).applicationPassword();
        return password == null ? null : password.replace(" ", "");
    }

    /** The workspace whose trusted hosts apply to the site's calls (see {@code OutgoingRequest#workspaceId}). */
    static String workspace(ChannelConnection connection) {
        return connection.workspaceId() == null ? null : connection.workspaceId().value();
    }

    static Map<String, String> auth(ChannelConnection connection) {
        return Map.of("Authorization", "Basic " + Redactor.basic(connection.settings(WordPressSettings.class).username(), password(connection)),
                "Accept", "application/json");
    }

    /** The password as stored and as it travels (Basic), for redaction. */
    static List<String> secretsOf(ChannelConnection connection) {
        List<String> secrets = new ArrayList<>();
        String raw = connection.secrets(WordPressSecrets.class).applicationPassword();
        secrets.add(raw);
        if (raw != null && connection.settings(WordPressSettings.class).username() != null) {
            secrets.add(Redactor.basic(connection.settings(WordPressSettings.class).username(), password(connection)));
        }
        return secrets;
    }

    /**
     * The site's own error message, redacted and shortened. Never other body text: the site is
     * whatever host an admin typed in, and its answer must not carry arbitrary content into details.
     */
    static String errorMessage(Exchange.Answered answered, JsonNode body, int max) {
        String message = Json.text(body, "message");
        if (message != null) {
            return Redactor.excerpt(message, answered.request().secrets(), max);
        }
        return answered.bodyTooLarge() ? "(" + TOO_LARGE + ")" : "(no WordPress error message)";
    }
}
