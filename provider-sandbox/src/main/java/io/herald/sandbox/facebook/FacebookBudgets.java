package io.herald.sandbox.facebook;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Page's call budget, as the Graph API keeps one per app and Page: at most {@code calls} posts in
 * each window of {@code windowSeconds} (windows aligned to the epoch), of which other apps already
 * use {@code otherAppsPercent}. Each answer reports the share used in {@code x-app-usage}; a post
 * past the budget is refused with code 4 and the seconds until the window ends. A Page without a
 * budget set has none.
 */
public final class FacebookBudgets {

    /** One Page's budget as an admin set it. */
    public record Budget(int calls, long windowSeconds, int otherAppsPercent) {
    }

    /** What one call found: the share used after it, whether it was refused, and when the window ends. */
    record Use(int percent, boolean refused, Instant windowEnd) {
    }

    private record Window(long start, int used) {
    }

    private final Map<String, Budget> budgets = new ConcurrentHashMap<>();
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    void set(String pageId, Budget budget) {
        if (budget == null || budget.calls() <= 0) {
            budgets.remove(pageId);
        } else {
            budgets.put(pageId, budget);
        }
        windows.remove(pageId);
    }

    /** Counts a post on the Page; null when the Page has no budget. */
    Use use(String pageId, Instant now) {
        Budget budget = budgets.get(pageId);
        if (budget == null) {
            return null;
        }
        long length = Math.max(1, budget.windowSeconds());
        long start = Math.floorDiv(now.getEpochSecond(), length) * length;
        int allowed = (int) Math.floor(budget.calls() * (100 - budget.otherAppsPercent()) / 100.0);
        boolean[] refused = new boolean[1];
        Window window = windows.compute(pageId, (page, w) -> {
            Window current = w == null || w.start() != start ? new Window(start, 0) : w;
            if (current.used() >= allowed) {
                refused[0] = true;
                return current;
            }
            return new Window(start, current.used() + 1);
        });
        int percent = Math.min(100, budget.otherAppsPercent()
                + (int) Math.ceil(window.used() * 100.0 / budget.calls()));
        return new Use(refused[0] ? 100 : percent, refused[0], Instant.ofEpochSecond(start + length));
    }
}
