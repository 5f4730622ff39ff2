package io.herald.adapters.http;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collection;
import java.util.regex.Pattern;

/**
 * Removes credentials from text that came back from a provider (or from an exception) before it is
 * put into a detail, a trace or a log line. Providers echo tokens: Facebook's paging links carry
 * {@code access_token=}, and some error bodies quote the token they refused.
 */
public final class Redactor {

    public static final String MASK = "[redacted]";

    private static final Pattern ACCESS_TOKEN_PARAM =
            Pattern.compile("(access_token[\"']?\\s*[=:]\\s*[\"']?)[^&\\s\"',}]+", Pattern.CASE_INSENSITIVE);
    private static final Pattern AUTHORIZATION =
            Pattern.compile("\\b(Bearer|Basic)\\s+[A-Za-z0-9._~+/=-]{8,}", Pattern.CASE_INSENSITIVE);

    private Redactor() {
    }

    public static String redact(String text, Collection<String> secrets) {
        if (text == null) {
            return null;
        }
        String result = text;
        for (String secret : secrets) {
            if (secret == null || secret.isBlank()) {
                continue;
            }
            result = result.replace(secret, MASK);
            String compact = secret.replace(" ", "");
            if (!compact.equals(secret) && !compact.isEmpty()) {
                result = result.replace(compact, MASK);
            }
            result = result.replace(java.net.URLEncoder.encode(secret, StandardCharsets.UTF_8), MASK);
        }
        result = ACCESS_TOKEN_PARAM.matcher(result).replaceAll("$1" + MASK);
        result = AUTHORIZATION.matcher(result).replaceAll("$1 " + MASK);
        return result;
    }

    /** The HTTP Basic credential for a user and password; also a secret to redact. */
    public static String basic(String username, String password) {
        return Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** Shortens provider text for a detail line, after redaction. */
    public static String excerpt(String text, Collection<String> secrets, int max) {
        String redacted = redact(text, secrets);
        if (redacted == null) {
            return "";
        }
        String oneLine = redacted.replaceAll("\\s+", " ").trim();
        return oneLine.length() <= max ? oneLine : oneLine.substring(0, max) + "…";
    }
}
