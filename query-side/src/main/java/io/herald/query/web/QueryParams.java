package io.herald.query.web;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.publication.PublicationStatus;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Parses query parameters taken as raw strings, so that every bad value is answered with
 * {@code validation_failed} and a message naming the parameter, not with a framework error.
 */
public final class QueryParams {

    private QueryParams() {
    }

    /** A page size: absent means {@code defaultLimit}; otherwise 1 to {@code max}. */
    public static int limit(String raw, int defaultLimit, int max) {
        if (isAbsent(raw)) {
            return defaultLimit;
        }
        int limit;
        try {
            limit = Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            throw invalid("limit must be a whole number from 1 to " + max);
        }
        if (limit < 1 || limit > max) {
            throw invalid("limit must be from 1 to " + max + ", was " + limit);
        }
        return limit;
    }

    public static PublicationStatus status(String raw) {
        if (isAbsent(raw)) {
            return null;
        }
        String name = raw.trim().toUpperCase(Locale.ROOT);
        return Arrays.stream(PublicationStatus.values())
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(() -> invalid("status must be one of "
                        + Arrays.stream(PublicationStatus.values()).map(Enum::name).collect(Collectors.joining(", "))));
    }

    public static Boolean flag(String name, String raw) {
        if (isAbsent(raw)) {
            return null;
        }
        return switch (raw.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw invalid(name + " must be true or false");
        };
    }

    /** An ISO-8601 instant such as {@code 2026-12-01T09:00:00Z}. */
    public static Instant instant(String name, String raw) {
        if (isAbsent(raw)) {
            return null;
        }
        try {
            return Instant.parse(raw.trim());
        } catch (DateTimeParseException e) {
            throw invalid(name + " must be an instant such as 2026-12-01T09:00:00Z");
        }
    }

    /** Free text of at most {@code max} characters, trimmed; blank means absent. */
    public static String text(String name, String raw, int max) {
        if (isAbsent(raw)) {
            return null;
        }
        String text = raw.trim();
        if (text.length() > max) {
            throw invalid(name + " must be at most " + max + " characters");
        }
        return text;
    }

    public static String optional(String raw) {
        return isAbsent(raw) ? null : raw;
    }

    private static boolean isAbsent(String raw) {
        return raw == null || raw.isBlank();
    }

    public static HeraldRejection invalid(String message) {
        return new HeraldRejection(ErrorCode.VALIDATION_FAILED, message);
    }
}
