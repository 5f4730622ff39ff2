package io.herald.query.publication;

import static io.herald.query.publication.PublicationEvents.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.FindPublicationQuery;
import io.herald.contracts.publication.FindPublicationsQuery;
import io.herald.contracts.publication.PublicationPage;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationView;
import io.herald.query.ReadStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The publication detail and list queries over a real PostgreSQL. */
class PublicationQueriesIT {

    private static final String WS = "acme";
    private static final WorkspaceId ACME = WorkspaceId.of(WS);

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
    void pagesThroughThePublicationsNewestFirstWithTheCursor() {
        for (int i = 0; i < 7; i++) {
            // two publications share each request time, so the id has to break the tie
            events.requested(WS, "entry-" + i, "fb-main", T0.plusSeconds(i / 2));
        }

        PublicationPage first = list(null, null, null, null, null, 3);
        PublicationPage second = list(null, null, null, null, first.nextCursor(), 3);
        PublicationPage third = list(null, null, null, null, second.nextCursor(), 3);

        assertThat(first.items()).hasSize(3);
        assertThat(second.items()).hasSize(3);
        assertThat(third.items()).hasSize(1);
        assertThat(first.nextCursor()).isNotNull();
        assertThat(second.nextCursor()).isNotNull();
        assertThat(third.nextCursor()).isNull();
        List<PublicationView> all = new ArrayList<>(first.items());
        all.addAll(second.items());
        all.addAll(third.items());
        assertThat(all).extracting(PublicationView::publicationId).doesNotHaveDuplicates().hasSize(7);
        assertThat(all).isSortedAccordingTo((a, b) -> {
            int byTime = b.requestedAt().compareTo(a.requestedAt());
            return byTime != 0 ? byTime : b.publicationId().value().compareTo(a.publicationId().value());
        });
    }

    @Test
    void aPageThatIsExactlyFullHasNoNextCursor() {
        for (int i = 0; i < 3; i++) {
            events.requested(WS, "entry-" + i, "fb-main", T0.plusSeconds(i));
        }

        assertThat(list(null, null, null, null, null, 3).nextCursor()).isNull();
    }

    @Test
    void theLimitDefaultsTo50AndIsCappedAt200() {
        assertThat(PublicationListRequest.effectiveLimit(0)).isEqualTo(50);
        assertThat(PublicationListRequest.effectiveLimit(500)).isEqualTo(200);
        assertThat(PublicationListRequest.effectiveLimit(7)).isEqualTo(7);
    }

    @Test
    void filtersByStatusChannelCalendarEntryAndDecision() {
        PublicationId succeeded = events.requested(WS, "entry-1", "fb-main", T0);
        events.attempted(succeeded, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.succeeded(succeeded, WS, 1, null, T0.plusSeconds(2));
        PublicationId failed = events.requested(WS, "entry-2", "li-main", T0.plusSeconds(3));
        events.attempted(failed, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(4));
        events.failed(failed, WS, 1, FailureKind.REJECTED, "401", "token expired", null, T0.plusSeconds(5));
        PublicationId requested = events.requested(WS, "entry-1", "li-main", T0.plusSeconds(6));

        assertThat(ids(list(PublicationStatus.SUCCEEDED, null, null, null, null, 0))).containsExactly(succeeded);
        assertThat(ids(list(null, ChannelId.of("li-main"), null, null, null, 0))).containsExactly(requested, failed);
        assertThat(ids(list(null, null, "entry-1", null, null, 0))).containsExactly(requested, succeeded);
        assertThat(ids(list(null, null, null, Boolean.TRUE, null, 0))).containsExactly(failed);
        assertThat(ids(list(null, null, null, Boolean.FALSE, null, 0))).containsExactly(requested, succeeded);
        assertThat(ids(list(PublicationStatus.REQUESTED, ChannelId.of("li-main"), "entry-1", Boolean.FALSE, null, 0)))
                .containsExactly(requested);
        assertThat(ids(list(PublicationStatus.ABANDONED, null, null, null, null, 0))).isEmpty();
    }

    @Test
    void filtersStillApplyOnLaterPages() {
        for (int i = 0; i < 5; i++) {
            events.requested(WS, "entry-" + i, "fb-main", T0.plusSeconds(i));
            events.requested(WS, "entry-" + i, "li-main", T0.plusSeconds(i));
        }

        PublicationPage first = list(null, ChannelId.of("li-main"), null, null, null, 2);
        PublicationPage second = list(null, ChannelId.of("li-main"), null, null, first.nextCursor(), 2);
        PublicationPage third = list(null, ChannelId.of("li-main"), null, null, second.nextCursor(), 2);

        assertThat(first.items()).hasSize(2);
        assertThat(second.items()).hasSize(2);
        assertThat(third.items()).hasSize(1);
        assertThat(third.nextCursor()).isNull();
        assertThat(List.of(first, second, third)).flatExtracting(PublicationPage::items)
                .extracting(v -> v.channelId().value()).containsOnly("li-main");
    }

    @Test
    void anotherWorkspacesPublicationIsNotFound() {
        PublicationId theirs = events.requested("globex", "entry-1", "fb-main", T0);
        events.requested(WS, "entry-2", "fb-main", T0);

        assertThat(queries.handle(new FindPublicationQuery(ACME, theirs))).isEmpty();
        assertThat(queries.handle(new FindPublicationQuery(WorkspaceId.of("globex"), theirs))).isPresent();
        assertThat(list(null, null, "entry-1", null, null, 0).items()).isEmpty();
        assertThat(ids(list(null, null, null, null, null, 0))).doesNotContain(theirs).hasSize(1);
    }

    @Test
    void anUnknownPublicationIsNotFound() {
        assertThat(queries.handle(new FindPublicationQuery(ACME, PublicationId.of("pub_nothing")))).isEmpty();
    }

    @Test
    void aCursorHeraldDidNotHandOutIsRefused() {
        assertThatThrownBy(() -> list(null, null, null, null, "not-a-cursor!", 10))
                .isInstanceOfSatisfying(HeraldRejection.class,
                        r -> assertThat(r.code()).isEqualTo(ErrorCode.VALIDATION_FAILED));
        String base64ButNoCursor = java.util.Base64.getUrlEncoder().encodeToString("hello".getBytes());
        assertThatThrownBy(() -> list(null, null, null, null, base64ButNoCursor, 10))
                .isInstanceOf(HeraldRejection.class);
    }

    private PublicationPage list(PublicationStatus status, ChannelId channel, String entry, Boolean needsDecision,
                                 String cursor, int limit) {
        return queries.handle(new FindPublicationsQuery(ACME, status, channel, entry, needsDecision, cursor, limit));
    }

    private static List<PublicationId> ids(PublicationPage page) {
        return page.items().stream().map(PublicationView::publicationId).toList();
    }
}
