package io.herald.query.stats;

import io.herald.query.web.QueryParams;
import java.util.Arrays;
import java.util.Locale;

/** The spans the overview charts, hour by hour. */
public enum StatsWindow {
    LAST_24_HOURS("24h", 24),
    LAST_7_DAYS("7d", 24 * 7);

    private final String label;
    private final int hours;

    StatsWindow(String label, int hours) {
        this.label = label;
        this.hours = hours;
    }

    public String label() {
        return label;
    }

    public int hours() {
        return hours;
    }

    /** Absent means the last 24 hours; anything but {@code 24h} or {@code 7d} is {@code validation_failed}. */
    public static StatsWindow parse(String raw) {
        if (raw == null || raw.isBlank()) {
            return LAST_24_HOURS;
        }
        String wanted = raw.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(w -> w.label.equals(wanted)).findFirst()
                .orElseThrow(() -> QueryParams.invalid("window must be 24h or 7d"));
    }
}
