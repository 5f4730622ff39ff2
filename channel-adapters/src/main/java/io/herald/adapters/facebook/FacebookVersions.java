package io.herald.adapters.facebook;

import io.herald.adapters.port.ApiVersions;
import java.net.URI;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Graph API versions Herald's Facebook code speaks, with the expiry dates Meta published
 * (its version calendar); a version whose expiry is not announced yet has none. The version is the
 * path segment of {@code herald.channels.facebook.graph-base-url}.
 */
final class FacebookVersions {

    static final String PROPERTY = "herald.channels.facebook.graph-base-url";
    private static final Pattern VERSION = Pattern.compile("/(v\\d+\\.\\d+)(?:/|$)");

    private FacebookVersions() {
    }

    static ApiVersions configured(URI graphBase) {
        Matcher version = VERSION.matcher(graphBase.getPath() == null ? "" : graphBase.getPath());
        Map<String, Optional<LocalDate>> spoken = new LinkedHashMap<>();
        spoken.put("v20.0", Optional.of(LocalDate.of(2026, 9, 24)));
        spoken.put("v21.0", Optional.of(LocalDate.of(2027, 1, 21)));
        spoken.put("v22.0", Optional.empty());
        spoken.put("v23.0", Optional.empty());
        spoken.put("v24.0", Optional.empty());
        spoken.put("v25.0", Optional.empty());
        return new ApiVersions(version.find() ? version.group(1) : "(none in " + PROPERTY + ")", PROPERTY, spoken);
    }
}
