package io.herald.adapters.http;

import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** Reads an HTTP {@code Retry-After} header: delay-seconds or an HTTP date. */
public final class RetryAfter {

    private RetryAfter() {
    }

    public static Optional<Duration> parse(Optional<String> header, Clock clock) {
        if (header.isEmpty() || header.get().isBlank()) {
            return Optional.empty();
        }
        String value = header.get().trim();
        try {
            long seconds = Long.parseLong(value);
            return seconds >= 0 ? Optional.of(Duration.ofSeconds(seconds)) : Optional.empty();
        } catch (NumberFormatException notSeconds) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
                Duration delay = Duration.between(clock.instant(), at.toInstant());
                return Optional.of(delay.isNegative() ? Duration.ZERO : delay);
            } catch (DateTimeParseException notADate) {
                return Optional.empty();
            }
        }
    }
}
