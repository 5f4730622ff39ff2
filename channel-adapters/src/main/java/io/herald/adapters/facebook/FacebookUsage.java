package io.herald.adapters.facebook;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.http.Exchange;
import io.herald.adapters.port.ProviderUsage;
import io.herald.platform.wire.Json;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Optional;

/**
 * The Graph API's usage headers as a {@link ProviderUsage}: the highest share used in
 * {@code X-App-Usage} (the app's) and {@code X-Business-Use-Case-Usage} (the Page's), each the
 * largest of {@code call_count}, {@code total_time} and {@code total_cputime}, and the Page's
 * {@code estimated_time_to_regain_access} (minutes) as when calls go through again.
 */
final class FacebookUsage {

    private FacebookUsage() {
    }

    static Optional<ProviderUsage> of(Exchange.Answered answered) {
        int percent = -1;
        long minutes = 0;
        Optional<String> app = answered.header("x-app-usage");
        if (app.isPresent()) {
            percent = Math.max(percent, largestShare(Json.parse(app.get())));
        }
        Optional<String> page = answered.header("x-business-use-case-usage");
        if (page.isPresent()) {
            JsonNode root = Json.parse(page.get());
            for (Iterator<JsonNode> owners = root.elements(); owners.hasNext(); ) {
                for (JsonNode entry : owners.next()) {
                    percent = Math.max(percent, largestShare(entry));
                    minutes = Math.max(minutes, entry.path("estimated_time_to_regain_access").asLong(0));
                }
            }
        }
        if (percent < 0) {
            return Optional.empty();
        }
        Instant sentAt = answered.sentAt();
        Instant regain = minutes > 0 && sentAt != null ? sentAt.plus(Duration.ofMinutes(minutes)) : null;
        return Optional.of(ProviderUsage.percent(percent, regain, sentAt));
    }

    private static int largestShare(JsonNode usage) {
        if (usage == null || !usage.isObject()) {
            return -1;
        }
        int share = -1;
        for (String field : new String[] {"call_count", "total_time", "total_cputime"}) {
            if (usage.has(field)) {
                share = Math.max(share, usage.path(field).asInt(0));
            }
        }
        return share;
    }
}
