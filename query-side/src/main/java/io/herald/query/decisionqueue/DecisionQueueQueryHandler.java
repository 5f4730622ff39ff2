package io.herald.query.decisionqueue;

import io.herald.contracts.publication.PublicationPage;
import io.herald.query.publication.PublicationListRequest;
import io.herald.query.publication.PublicationQueryHandler;
import io.herald.query.publication.PublicationViewRepository;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.stereotype.Component;

/** Answers the decision queue from the publication view's rows that need a decision. */
@Component
public class DecisionQueueQueryHandler {

    private final PublicationViewRepository publications;

    public DecisionQueueQueryHandler(PublicationViewRepository publications) {
        this.publications = publications;
    }

    @QueryHandler
    public PublicationPage handle(FindDecisionQueueQuery query) {
        return publications.list(new PublicationListRequest(query.workspaceId(), null, query.channelId(), null,
                Boolean.TRUE, PublicationQueryHandler.cursor(query.cursor()), query.limit(),
                PublicationListRequest.Order.OLDEST_FIRST));
    }
}
