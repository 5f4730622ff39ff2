package io.herald.adapters.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.port.PublishOutcome;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.FailureKind;
import java.time.Duration;
import java.util.Optional;

/**
 * A Meta publishing limit as Instagram ({@code GET /{ig-user-id}/content_publishing_limit}) and
 * Threads ({@code GET /{threads-user-id}/threads_publishing_limit}) answer it: {@code {"data":
 * [{"quota_usage": n, "config": {"quota_total": m, "quota_duration": seconds}}]}} (Threads answers
 * its replies' limit beside it as {@code reply_quota_usage} and {@code reply_config}). Read before a
 * publish: when the posts of the rolling window reached the total, the publish is not sent and the
 * publication waits as rate limited ({@link #waitFor}), then reads the limit again.
 *
 * @param usage  the posts published in the rolling window ending now
 * @param total  how many the window allows
 * @param window the rolling window
 */
public record PublishingLimit(int usage, int total, Duration window) {

    public static final String REACHED = "publishing_limit_reached";
    private static final Duration DAY = Duration.ofDays(1);

    /**
     * The limit in the answer's first {@code data} entry under {@code usageField} and {@code configField}
     * ({@code quota_usage} and {@code config} for posts); empty when the answer holds none.
     */
    public static Optional<PublishingLimit> read(JsonNode body, String usageField, String configField) {
        JsonNode entry = body.path("data").path(0);
        JsonNode config = entry.path(configField);
        if (!entry.path(usageField).canConvertToInt() || !config.path("quota_total").canConvertToInt()) {
            return Optional.empty();
        }
        long seconds = config.path("quota_duration").asLong(0);
        return Optional.of(new PublishingLimit(entry.path(usageField).asInt(), config.path("quota_total").asInt(),
                seconds > 0 ? Duration.ofSeconds(seconds) : DAY));
    }

    public boolean reached() {
        return usage >= total;
    }

    /**
     * How long a publication over the limit waits before the limit is read again: a sixth of the
     * rolling window, so that the retries a rate limit gets (8 by default) span more than the window.
     */
    public static Duration waitFor(Duration window) {
        return window.dividedBy(6).plusSeconds(1);
    }

    /** The refusal of a publish not sent because the limit is reached: rate limited, waiting {@link #waitFor}. */
    public PublishOutcome.Failed refusal(String what, AttemptTrace trace) {
        Duration wait = waitFor(window);
        return new PublishOutcome.Failed(FailureKind.RATE_LIMITED, REACHED, "The account published " + usage
                + " of its " + total + " " + what + " in " + describe(window) + "; the publication waits "
                + wait.toSeconds() + " s before the limit is read again. Nothing was published.", wait, trace);
    }

    private static String describe(Duration window) {
        return window.toSeconds() % 3600 == 0 ? window.toHours() + " h" : window.toSeconds() + " s";
    }
}
