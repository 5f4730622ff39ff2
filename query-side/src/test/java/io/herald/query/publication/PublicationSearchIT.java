package io.herald.query.publication;

import static io.herald.query.publication.PublicationEvents.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.FindPublicationsQuery;
import io.herald.contracts.publication.PublicationPage;
import io.herald.contracts.publication.PublicationView;
import io.herald.query.ReadStore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The console's further list filters: time range, search by id or calendar entry, held, with paging. */
class PublicationSearchIT {

    private static final String WS = "acme";

    private final ReadStore store = ReadStore.shared();
    private final PublicationViewRepository repository =
            new PublicationViewRepository(store.jdbc(), store.objectMapper());
    private final PublicationQueryHandler queries = new PublicationQueryHandler(repository);
    private PublicationEvents events;

    @BeforeEach
    void emptyTables() {
        store.clear();
        events = new PublicationEvents(new PublicationViewProjection(repository));
    }

    @Test
    void filtersByTheTimeTheyWereRequested() {
        events.requested(WS, "early", "fb-main", T0);
        events.requested(WS, "middle", "fb-main", T0.plus(Duration.ofHours(1)));
        events.requested(WS, "late", "fb-main", T0.plus(Duration.ofHours(2)));

        List<String> entries = entries(search(new PublicationSearch(null, T0.plus(Duration.ofMinutes(30)),
                T0.plus(Duration.ofHours(2)), null), null, 50));

        assertThat(entries).containsExactly("middle");
    }

    @Test
    void findsAPublicationByItsIdOrItsCalendarEntryAndTakesWildcardsLiterally() {
        PublicationId launch = events.requested(WS, "launch-2026", "fb-main", T0);
        events.requested(WS, "launch-2026", "li-main", T0.plusSeconds(1));
        events.requested(WS, "launchX2026", "fb-main", T0.plusSeconds(2));
        events.requested(WS, "other", "fb-main", T0.plusSeconds(3));
        events.requested("globex", "launch-2026", "fb-main", T0);

        assertThat(entries(search(new PublicationSearch(null, null, null, "launch-"), null, 50)))
                .containsExactly("launch-2026", "launch-2026");
        assertThat(search(new PublicationSearch(null, null, null, launch.value()), null, 50).items())
                .extracting(PublicationView::publicationId).containsExactly(launch);
        assertThat(search(new PublicationSearch(null, null, null, "%"), null, 50).items()).isEmpty();
        assertThat(search(new PublicationSearch(null, null, null, "launch_"), null, 50).items()).isEmpty();
    }

    @Test
    void findsAnEntryPrefixBeyondAscii() {
        events.requested(WS, "été-1", "fb-main", T0);
        events.requested(WS, "été-2", "fb-main", T0.plusSeconds(1));
        events.requested(WS, "étf", "fb-main", T0.plusSeconds(2));
        events.requested(WS, "ét", "fb-main", T0.plusSeconds(3));

        assertThat(entries(search(new PublicationSearch(null, null, null, "été"), null, 50)))
                .containsExactly("été-2", "été-1");
        assertThat(entries(search(new PublicationSearch(null, null, null, "ét"), null, 50)))
                .containsExactly("ét", "étf", "été-2", "été-1");
        assertThat(PublicationViewRepository.prefixUpperBound("été")).isEqualTo("étê");
        assertThat(PublicationViewRepository.prefixUpperBound("a" + Character.toString(Character.MAX_CODE_POINT)))
                .isEqualTo("b");
        assertThat(PublicationViewRepository.prefixUpperBound(Character.toString(Character.MAX_CODE_POINT))).isNull();
    }

    @Test
    void pagesThroughASearchWithTheCursor() {
        for (int i = 0; i < 5; i++) {
            events.requested(WS, "campaign-" + i, "fb-main", T0.plusSeconds(i));
        }
        events.requested(WS, "unrelated", "fb-main", T0.plusSeconds(9));
        PublicationSearch campaign = new PublicationSearch(null, null, null, "campaign");

        PublicationPage first = search(campaign, null, 3);
        PublicationPage second = search(campaign, first.nextCursor(), 3);

        assertThat(entries(first)).containsExactly("campaign-4", "campaign-3", "campaign-2");
        assertThat(entries(second)).containsExactly("campaign-1", "campaign-0");
        assertThat(second.nextCursor()).isNull();
    }

    @Test
    void heldFiltersOnTheHeldStatus() {
        events.requested(WS, "waiting", "fb-main", T0);

        assertThat(search(new PublicationSearch(true, null, null, null), null, 50).items()).isEmpty();
        assertThat(entries(search(new PublicationSearch(false, null, null, null), null, 50))).containsExactly("waiting");
    }

    private PublicationPage search(PublicationSearch search, String cursor, int limit) {
        return queries.handle(new SearchPublicationsQuery(new FindPublicationsQuery(WorkspaceId.of(WS), null, null, null,
                null, cursor, limit), search));
    }

    private static List<String> entries(PublicationPage page) {
        return page.items().stream().map(PublicationView::calendarEntryId).toList();
    }
}
