package io.herald.adapters.http;

import io.herald.adapters.port.ProviderUsage;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The common rate-limit headers as a {@link ProviderUsage}: a count of calls left
 * ({@code X-RateLimit-Remaining}, {@code ratelimit-remaining}) and when the window resets, as an
 * ISO-8601 instant (Mastodon) or in epoch seconds (Bluesky's PDS). The provider's package names
 * its headers.
 */
public final class RateLimitHeaders {

    private RateLimitHeaders() {
    }

    public static Optional<ProviderUsage> usage(Exchange.Answered answered, String remainingHeader,
                                                String resetHeader) {
        Optional<String> remaining = answered.header(remainingHeader);
        if (remaining.isEmpty()) {
            return Optional.empty();
        }
        int left;
        try {
            left = Integer.parseInt(remaining.get().trim());
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        Instant reset = answered.header(resetHeader).map(RateLimitHeaders::instant).orElse(null);
        return Optional.of(ProviderUsage.remaining(left, reset, answered.sentAt()));
    }

    private static Instant instant(String value) {
        String text = value.trim();
        try {
            return Instant.ofEpochSecond(Long.parseLong(text));
        } catch (NumberFormatException notSeconds) {
            try {
                return Instant.parse(text);
            } catch (DateTimeParseException notAnInstant) {
                try {
                    return java.time.OffsetDateTime.parse(text).toInstant();
                } catch (DateTimeParseException unreadable) {
                    return null;
                }
            }
        }
    }
}
