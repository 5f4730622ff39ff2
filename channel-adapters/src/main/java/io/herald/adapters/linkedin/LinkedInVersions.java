package io.herald.adapters.linkedin;

import io.herald.adapters.port.ApiVersions;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The monthly {@code LinkedIn-Version}s Herald's LinkedIn code speaks. LinkedIn supports each
 * version for one year after its release and then answers 426 {@code NONEXISTENT_VERSION}
 * (202504 stopped working in April 2026), so each version's sunset is the first day of the same
 * month a year later.
 */
final class LinkedInVersions {

    static final String PROPERTY = "herald.channels.linkedin.version";
    /** The oldest and newest version this code was written and checked against. */
    private static final YearMonth FIRST = YearMonth.of(2025, 5);
    private static final YearMonth LAST = YearMonth.of(2026, 12);
    private static final DateTimeFormatter NAME = DateTimeFormatter.ofPattern("yyyyMM");

    private LinkedInVersions() {
    }

    static ApiVersions configured(String version) {
        Map<String, Optional<LocalDate>> spoken = new LinkedHashMap<>();
        for (YearMonth month = FIRST; !month.isAfter(LAST); month = month.plusMonths(1)) {
            spoken.put(month.format(NAME), Optional.of(month.plusYears(1).atDay(1)));
        }
        return new ApiVersions(version, PROPERTY, spoken);
    }
}
