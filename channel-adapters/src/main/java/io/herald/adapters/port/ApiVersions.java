package io.herald.adapters.port;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The provider API versions a plug-in speaks, with the sunset date the provider published for
 * each (absent where none is announced yet), and the version Herald is configured to send. A
 * configured version the plug-in does not list is reported as "sunset unknown": Herald cannot warn
 * before it stops working.
 *
 * @param property the configuration property that sets the version, named in every warning and hold
 */
public record ApiVersions(String configured, String property, Map<String, Optional<LocalDate>> spoken) {

    public ApiVersions {
        spoken = Collections.unmodifiableMap(new LinkedHashMap<>(spoken));
    }

    /** Whether the plug-in declares the configured version. */
    public boolean known() {
        return spoken.containsKey(configured);
    }

    /** The configured version's sunset, the start of its day in UTC; empty when unknown or not announced. */
    public Optional<Instant> sunsetAt() {
        return spoken.getOrDefault(configured, Optional.empty())
                .map(day -> day.atStartOfDay().toInstant(ZoneOffset.UTC));
    }

    /** What a hold after the provider retired the configured version says (the publication's {@code heldReason}). */
    public String retiredReason() {
        return "API version retired; update " + property;
    }
}
