package io.herald.sandbox.facebook;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Forms;
import io.herald.sandbox.Paging;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The Graph API's cursor paging ({@code limit}, {@code after}), as the feed and the comment lists page. */
final class FacebookPaging {

    /** The items shown from {@code offset} on, of {@code total}. */
    record Page<T>(List<T> items, int offset, int limit, int total) {

        boolean hasMore() {
            return offset + items.size() < total;
        }

        String afterCursor() {
            return encodeCursor(offset + items.size());
        }
    }

    private FacebookPaging() {
    }

    /** The page the request's {@code limit} (1 to 100, 25 by default) and {@code after} cursor name. */
    static <T> Page<T> of(List<T> all, Map<String, String> params) {
        int limit = (int) Math.min(100, Math.max(1, parseLong(params.get("limit"), 25)));
        int offset = params.containsKey("after") ? decodeCursor(params.get("after")) : 0;
        return new Page<>(Paging.slice(all, offset, limit), offset, limit, all.size());
    }

    /**
     * Adds {@code paging} to a page that shows anything: its cursors, and a {@code next} link to
     * {@code base} with the query {@code nextQuery} makes of the next page's cursor while more follow.
     */
    static void link(ObjectNode body, Page<?> page, String base, Function<String, Map<String, String>> nextQuery) {
        if (page.items().isEmpty()) {
            return;
        }
        ObjectNode paging = body.putObject("paging");
        ObjectNode cursors = paging.putObject("cursors");
        cursors.put("before", encodeCursor(page.offset()));
        cursors.put("after", page.afterCursor());
        if (page.hasMore()) {
            paging.put("next", base + "?" + Forms.encode(nextQuery.apply(page.afterCursor())));
        }
    }

    static long parseLong(String value, long fallback) {
        try {
            return value == null ? fallback : Long.parseLong(value);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    private static String encodeCursor(int offset) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(("o:" + offset).getBytes(StandardCharsets.UTF_8));
    }

    private static int decodeCursor(String cursor) {
        try {
            String decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            return Integer.parseInt(decoded.substring(2));
        } catch (RuntimeException e) {
            return 0;
        }
    }
}
