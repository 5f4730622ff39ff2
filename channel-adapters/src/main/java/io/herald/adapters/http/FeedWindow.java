package io.herald.adapters.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.port.ReadBackOutcome;
import io.herald.contracts.publication.ProviderRef;
import io.herald.platform.wire.Json;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A read-back's search of the provider's lists (a Page's feed, an author's posts, a post's
 * comments) for what one attempt left: page after page, every item in the window compared with
 * the attempt's text (and link), until a list ends, an item older than the window shows in a list
 * kept newest first, or {@value #MAX_PAGES} pages of one list were read. Exactly one match is the
 * attempt's; none, once the whole window was read, proves there is none; several cannot be told
 * apart. A provider supplies how to fetch a page ({@link Pages}) and how to read its answer
 * ({@link Format}); one search may walk several lists (a Page's feed, then its scheduled posts).
 */
public final class FeedWindow {

    /** A bound on paging: a list with more pages than this in the window cannot be read back reliably. */
    public static final int MAX_PAGES = 50;
    /** A post stamped this long after the search began still counts: the provider's clock may run ahead. */
    private static final long SKEW_SECONDS = 60;

    /**
     * One item of a list as the search reads it.
     *
     * @param created null where the list has no times (comments) or the item shows none: then it is in the window
     * @param links   the links the item shows; when it shows some, one must be the attempt's link
     */
    public record Item(String id, Instant created, String text, List<String> links, ProviderRef ref) {
    }

    /** One page read: its items and the next page's cursor (null: the last), or the outcome that ends the search. */
    public record Page<C>(List<Item> items, C next, ReadBackOutcome failure) {

        public static <C> Page<C> failed(ReadBackOutcome failure) {
            return new Page<>(List.of(), null, failure);
        }
    }

    /** How one page of a provider's list is fetched. */
    @FunctionalInterface
    public interface Pages<C> {
        CompletableFuture<Page<C>> fetch(C cursor);
    }

    /**
     * How a provider's list answers: the field holding the items, how to read one, and what an
     * answer other than HTTP 200 means (the provider's own words for a refusal).
     */
    public record Format(String itemsField, Function<JsonNode, Item> item,
                         BiFunction<Exchange.Answered, JsonNode, ReadBackOutcome> refusal) {
    }

    private final String noun;
    private final String where;
    private final Instant start;
    private final Instant end;
    private final String text;
    private final String link;
    private final List<Item> matches = new ArrayList<>();
    private int seen;
    private int pages;

    private FeedWindow(String noun, String where, Instant start, Instant end, String text, String link) {
        this.noun = noun;
        this.where = where;
        this.start = start;
        this.end = end;
        this.text = Texts.normalise(text);
        this.link = link;
    }

    /** Posts created in [{@code start}, {@code end} + 1 min] with the text (and the link, where a post shows links). */
    public static FeedWindow posts(String where, Instant start, Instant end, String text, String link) {
        return new FeedWindow("post", where, start, end, text, link);
    }

    /** A post's comments with the text, whenever written. */
    public static FeedWindow comments(String text) {
        return new FeedWindow("comment", "of the post", null, null, text, null);
    }

    /**
     * Reads the list {@code what} (e.g. "the Page feed") from the page at {@code first} on. Empty
     * when it was read to its end, or to the window's start; else the outcome that ended the reading.
     */
    public <C> CompletableFuture<Optional<ReadBackOutcome>> read(String what, boolean newestFirst, C first,
                                                                 Pages<C> list) {
        return read(what, newestFirst, first, list, 1);
    }

    /** Reads the list, then says what the whole search found. */
    public <C> CompletableFuture<ReadBackOutcome> search(String what, boolean newestFirst, C first, Pages<C> list) {
        return read(what, newestFirst, first, list).thenApply(ended -> ended.orElseGet(this::result));
    }

    private <C> CompletableFuture<Optional<ReadBackOutcome>> read(String what, boolean newestFirst, C cursor,
                                                                  Pages<C> list, int pageNo) {
        return list.fetch(cursor).thenCompose(page -> {
            if (page.failure() != null) {
                return done(Optional.of(page.failure()));
            }
            pages++;
            boolean olderThanWindow = false;
            for (Item item : page.items()) {
                olderThanWindow |= !consider(item);
            }
            if ((newestFirst && olderThanWindow) || page.next() == null) {
                return done(Optional.empty());
            }
            if (pageNo >= MAX_PAGES) {
                return done(Optional.of(new ReadBackOutcome.Unknown("More than " + MAX_PAGES + " pages of " + what
                        + (start == null ? "" : " in the window") + "; not read completely.")));
            }
            return read(what, newestFirst, page.next(), list, pageNo + 1);
        });
    }

    /** False when the item is older than the window. */
    private boolean consider(Item item) {
        seen++;
        if (item.created() != null && start != null) {
            if (item.created().isBefore(start)) {
                return false;
            }
            if (item.created().isAfter(end.plusSeconds(SKEW_SECONDS))) {
                return true;
            }
        }
        if (Texts.normalise(item.text()).equals(text) && linkAgrees(item.links())) {
            matches.add(item);
        }
        return true;
    }

    /** Facebook no longer returns a post's link field; when it shows the attachment, it must be the same link. */
    private boolean linkAgrees(List<String> links) {
        return Texts.blank(link) || links.isEmpty() || links.stream().anyMatch(l -> stripped(l).equals(stripped(link)));
    }

    private static String stripped(String url) {
        String s = url.trim();
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    /** What the search found in everything it read. */
    public ReadBackOutcome result() {
        String since = start == null ? "" : " since " + start;
        if (matches.size() == 1) {
            Item item = matches.get(0);
            return new ReadBackOutcome.Found(item.ref(), capitalised(noun) + " " + item.id()
                    + (item.created() == null ? "" : " created " + item.created()) + " has the attempt's text; "
                    + seen + " " + noun + "s in " + pages + " page(s) read.");
        }
        if (matches.isEmpty()) {
            return new ReadBackOutcome.NotFound("No " + noun + " with the attempt's text among " + seen + " " + noun
                    + "s " + where + since + " (" + pages + " page(s) read).");
        }
        return new ReadBackOutcome.Unknown(matches.size() + " " + noun + "s have the attempt's text" + since + ": "
                + matches.stream().map(Item::id).toList());
    }

    /**
     * One page's answer read by the provider's {@code format}: a failure when nothing came back, the
     * provider refused, or the answer has no list; else its items and the cursor {@code next} gives
     * for the answer's body and its number of items.
     */
    public static <C> Page<C> page(Exchange exchange, String what, Format format,
                                   BiFunction<JsonNode, Integer, C> next) {
        if (exchange instanceof Exchange.Unanswered unanswered) {
            return Page.failed(new ReadBackOutcome.Unknown(capitalised(what) + " could not be read: "
                    + unanswered.detail()));
        }
        Exchange.Answered answered = (Exchange.Answered) exchange;
        JsonNode body = Json.parse(answered.body());
        if (answered.status() != 200) {
            return Page.failed(format.refusal().apply(answered, body));
        }
        JsonNode list = body.path(format.itemsField());
        if (!list.isArray()) {
            return Page.failed(new ReadBackOutcome.Unknown(capitalised(what) + ": the answer had no "
                    + format.itemsField() + " list: "
                    + Redactor.excerpt(answered.body(), answered.request().secrets(), 200)));
        }
        List<Item> items = new ArrayList<>();
        list.forEach(node -> items.add(format.item().apply(node)));
        return new Page<>(items, next.apply(body, items.size()), null);
    }

    public static String capitalised(String what) {
        return what.isEmpty() ? what : Character.toUpperCase(what.charAt(0)) + what.substring(1);
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }
}
