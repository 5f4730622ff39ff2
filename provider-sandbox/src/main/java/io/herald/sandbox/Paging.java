package io.herald.sandbox;

import java.util.List;

/** The part of a list a page shows, as every simulated provider pages its lists. */
public final class Paging {

    private Paging() {
    }

    /** Up to {@code count} items from {@code from} on; empty past the end. */
    public static <T> List<T> slice(List<T> all, int from, int count) {
        return all.subList(Math.min(from, all.size()), Math.min(from + count, all.size()));
    }
}
