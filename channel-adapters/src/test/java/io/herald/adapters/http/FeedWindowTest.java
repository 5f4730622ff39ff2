package io.herald.adapters.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.port.ReadBackOutcome;
import io.herald.contracts.publication.ProviderRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The window search over pages a provider would return, without the provider: its stops and its matching. */
class FeedWindowTest {

    private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");
    private static final Instant END = Instant.parse("2026-12-01T10:10:00Z");

    private final List<Integer> fetched = new ArrayList<>();

    @Test
    void aListKeptNewestFirstEndsAtThePageWithAPostOlderThanTheWindow() {
        FeedWindow window = FeedWindow.posts("of the author", START, END, "Hello", null);

        ReadBackOutcome outcome = window.search("the author's posts", true, 0, pages(
                List.of(post("a", "10:05", "Other"), post("b", "09:50", "Hello")),
                List.of(post("c", "10:02", "Hello")))).join();

        assertThat(fetched).containsExactly(0);
        assertThat(outcome).isInstanceOfSatisfying(ReadBackOutcome.NotFound.class,
                notFound -> assertThat(notFound.detail()).contains("among 2 posts of the author").contains("1 page(s)"));
    }

    @Test
    void aListInNoOrderIsReadToItsEndAndOnePostWithTheTextIsFound() {
        FeedWindow window = FeedWindow.posts("of the Page", START, END, "Hello  world", null);

        ReadBackOutcome outcome = window.search("the Page's scheduled posts", false, 0, pages(
                List.of(post("old", "09:00", "Hello world")),
                List.of(post("late", "10:11:30", "Hello world"), post("hit", "10:03", "Hello\nworld")))).join();

        assertThat(fetched).containsExactly(0, 1);
        assertThat(outcome).isInstanceOfSatisfying(ReadBackOutcome.Found.class, found -> {
            assertThat(found.providerRef().id()).isEqualTo("hit");
            assertThat(found.evidence()).contains("3 posts in 2 page(s)");
        });
    }

    @Test
    void twoPostsWithTheTextCannotBeToldApart() {
        FeedWindow window = FeedWindow.posts("of the Page", START, END, "Hello", null);

        ReadBackOutcome outcome = window.search("the Page feed", false, 0,
                pages(List.of(post("x", "10:01", "Hello"), post("y", "10:02", "Hello")))).join();

        assertThat(outcome).isInstanceOfSatisfying(ReadBackOutcome.Unknown.class,
                unknown -> assertThat(unknown.reason()).contains("2 posts").contains("[x, y]"));
    }

    @Test
    void aPostShowingAnotherLinkIsNotTheAttemptsAndOneShowingNoneIsJudgedByItsText() {
        FeedWindow window = FeedWindow.posts("of the Page", START, END, "Read this", "https://example.org/a");
        FeedWindow.Item otherLink = new FeedWindow.Item("other", at("10:01"), "Read this",
                List.of("https://example.org/b"), new ProviderRef("other", null));
        FeedWindow.Item sameLink = new FeedWindow.Item("same", at("10:02"), "Read this",
                List.of("https://example.org/a/"), new ProviderRef("same", null));

        ReadBackOutcome outcome = window.search("the Page feed", false, 0, pages(List.of(otherLink, sameLink)))
                .join();

        assertThat(outcome).isInstanceOfSatisfying(ReadBackOutcome.Found.class,
                found -> assertThat(found.providerRef().id()).isEqualTo("same"));
        assertThat(FeedWindow.posts("of the Page", START, END, "Read this", "https://example.org/a")
                .search("the Page feed", false, 0, pages(List.of(post("bare", "10:01", "Read this")))).join())
                .isInstanceOf(ReadBackOutcome.Found.class);
    }

    @Test
    void aListLongerThanTheBoundIsNotReadCompletely() {
        FeedWindow window = FeedWindow.comments("Thanks");
        FeedWindow.Pages<Integer> endless = cursor -> {
            fetched.add(cursor);
            return CompletableFuture.completedFuture(new FeedWindow.Page<>(
                    List.of(new FeedWindow.Item("c" + cursor, null, "no", List.of(), null)), cursor + 1, null));
        };

        ReadBackOutcome outcome = window.search("the post's comments", false, 0, endless).join();

        assertThat(fetched).hasSize(FeedWindow.MAX_PAGES);
        assertThat(outcome).isInstanceOfSatisfying(ReadBackOutcome.Unknown.class,
                unknown -> assertThat(unknown.reason()).contains("not read completely"));
    }

    @Test
    void aPageThatCouldNotBeReadEndsTheSearchWithItsOutcome() {
        FeedWindow window = FeedWindow.comments("Thanks");
        ReadBackOutcome refused = new ReadBackOutcome.Unavailable("missing scope");
        FeedWindow.Pages<Integer> failing = cursor -> CompletableFuture.completedFuture(
                cursor == 0 ? new FeedWindow.Page<>(List.of(new FeedWindow.Item("c1", null, "Thanks", List.of(),
                        new ProviderRef("c1", null))), 1, null) : FeedWindow.Page.failed(refused));

        assertThat(window.search("the post's comments", false, 0, failing).join()).isSameAs(refused);
    }

    @SafeVarargs
    private FeedWindow.Pages<Integer> pages(List<FeedWindow.Item>... pages) {
        return cursor -> {
            fetched.add(cursor);
            Integer next = cursor + 1 < pages.length ? cursor + 1 : null;
            return CompletableFuture.completedFuture(new FeedWindow.Page<>(pages[cursor], next, null));
        };
    }

    private static FeedWindow.Item post(String id, String time, String text) {
        return new FeedWindow.Item(id, at(time), text, List.of(), new ProviderRef(id, null));
    }

    private static Instant at(String time) {
        return Instant.parse("2026-12-01T" + (time.length() == 5 ? time + ":00" : time) + "Z");
    }
}
