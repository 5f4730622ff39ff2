package io.herald.adapters.instagram;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.http.Redactor;
import io.herald.platform.wire.Json;
import java.util.Set;

/**
 * A Graph error body {@code {"error":{"message","type","code","error_subcode","fbtrace_id"}}} as
 * Instagram answers it, and what it means (docs/channels.md#instagram).
 */
record InstagramError(int code, Integer subcode, String message) {

    static final Set<Integer> RATE_LIMIT_CODES = Set.of(4, 17, 32, 341, 613);
    static final Set<Integer> LAPSED_SUBCODES = Set.of(458, 460, 463, 467);

    static InstagramError of(Exchange.Answered answered, JsonNode body) {
        JsonNode error = body.path("error");
        if (!error.isObject() || !error.path("code").canConvertToInt()) {
            return null;
        }
        JsonNode sub = error.path("error_subcode");
        return new InstagramError(error.path("code").asInt(), sub.canConvertToInt() ? sub.asInt() : null,
                Redactor.excerpt(Json.text(error, "message"), answered.request().secrets(), 400));
    }

    String providerCode() {
        return subcode == null ? Integer.toString(code) : code + "/" + subcode;
    }

    /** Credentials that worked and lapsed (expired, password change, logout, app removed). */
    boolean authLost() {
        return code == 190 && (subcode == null || LAPSED_SUBCODES.contains(subcode)) && !unparsable();
    }

    private boolean unparsable() {
        return message != null && message.contains("Cannot parse access token");
    }

    boolean rateLimited() {
        return RATE_LIMIT_CODES.contains(code);
    }

    /** The account published as many posts as its limit allows in the window. */
    boolean publishingLimitReached() {
        return code == 9 && Integer.valueOf(2207042).equals(subcode);
    }

    /** Publishing a container before it is {@code FINISHED}: provably not published. */
    boolean containerNotReady() {
        return code == 9007 && Integer.valueOf(2207027).equals(subcode);
    }

    boolean serviceError() {
        return code == 1 || code == 2;
    }

    /** The token is too new to refresh (Meta wants it at least a day old). */
    boolean tooNew() {
        return message != null && message.toLowerCase(java.util.Locale.ROOT).contains("too new");
    }

    String describe() {
        String fix;
        if (code == 190) {
            fix = "The access token is expired or invalid. Fix: connect the account again.";
        } else if (code == 10 || (code >= 200 && code <= 299)) {
            fix = "A permission is missing. Fix: grant instagram_business_content_publish (and"
                    + " instagram_business_manage_comments) and connect again.";
        } else if (code == 9004) {
            fix = "Instagram could not fetch the image from Herald's public address. Fix: check that"
                    + " herald.public-base-url is reachable from the internet.";
        } else if (code == 100) {
            fix = "A parameter was refused. Check the caption and the images.";
        } else {
            fix = "Check the message and the connection.";
        }
        return "Instagram refused the request (code " + providerCode() + "): " + message + " " + fix;
    }
}
