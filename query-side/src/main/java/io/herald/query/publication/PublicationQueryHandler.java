package io.herald.query.publication;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.publication.FindPublicationQuery;
import io.herald.contracts.publication.FindPublicationsQuery;
import io.herald.contracts.publication.PublicationPage;
import io.herald.contracts.publication.PublicationView;
import java.util.Optional;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/** Answers the publication detail and list queries from {@code publication_view}. */
@Component
public class PublicationQueryHandler {

    private final PublicationViewRepository repository;
    private final ConnectionThrottles throttles;

    /** Without budgets: no view says it is throttled (tests of the read store alone). */
    public PublicationQueryHandler(PublicationViewRepository repository) {
        this(repository, null);
    }

    @Autowired
    public PublicationQueryHandler(PublicationViewRepository repository, ConnectionThrottles throttles) {
        this.repository = repository;
        this.throttles = throttles;
    }

    /** Empty when the publication does not exist or belongs to another workspace: callers cannot tell which. */
    @QueryHandler
    public Optional<PublicationView> handle(FindPublicationQuery query) {
        return throttled(repository.find(query.workspaceId(), query.publicationId()));
    }

    /** Newest first; the limit defaults to 50 and is capped at 200. */
    @QueryHandler
    public PublicationPage handle(FindPublicationsQuery query) {
        return throttled(repository.list(new PublicationListRequest(query.workspaceId(), query.status(),
                query.channelId(), query.calendarEntryId(), query.needsDecision(), cursor(query.cursor()),
                query.limit(), PublicationListRequest.Order.NEWEST_FIRST)));
    }

    /** {@link #handle(FindPublicationsQuery)} with the filters of {@link PublicationSearch} as well. */
    @QueryHandler
    public PublicationPage handle(SearchPublicationsQuery query) {
        FindPublicationsQuery list = query.list();
        return throttled(repository.list(new PublicationListRequest(list.workspaceId(), list.status(),
                list.channelId(), list.calendarEntryId(), list.needsDecision(), cursor(list.cursor()), list.limit(),
                PublicationListRequest.Order.NEWEST_FIRST), query.search()));
    }

    private Optional<PublicationView> throttled(Optional<PublicationView> view) {
        return throttles == null ? view : throttles.apply(view);
    }

    private PublicationPage throttled(PublicationPage page) {
        return throttles == null ? page : throttles.apply(page);
    }

    /** Null when absent; a cursor Herald did not hand out is refused as {@code validation_failed}. */
    public static PublicationCursor cursor(String raw) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        try {
            return PublicationCursor.decode(raw);
        } catch (IllegalArgumentException e) {
            throw new HeraldRejection(ErrorCode.VALIDATION_FAILED, "cursor is not one returned as nextCursor");
        }
    }
}
