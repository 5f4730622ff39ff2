package io.herald.query.decisionqueue;

import io.swagger.v3.oas.annotations.Operation;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.PublicationPage;
import io.herald.query.publication.PublicationListRequest;
import io.herald.query.publication.PublicationQueryHandler;
import io.herald.query.web.QueryAnswers;
import io.herald.query.web.QueryParams;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** docs/api.md#the-contract-in-one-page: {@code GET /api/v1/workspaces/{ws}/decisions}, answered as {@code {items, nextCursor}}. */
@RestController
public class DecisionQueueController {

    private final QueryGateway queries;

    public DecisionQueueController(QueryGateway queries) {
        this.queries = queries;
    }

    @Operation(description = "The decision queue: publications waiting for an operator (unknown outcomes that could "
            + "not be read back, held and failed ones), oldest first, a page at a time.")
    @GetMapping(path = "/api/v1/workspaces/{ws}/decisions", produces = MediaType.APPLICATION_JSON_VALUE)
    public PublicationPage decisions(@PathVariable("ws") String workspace,
                                     @RequestParam(name = "channelId", required = false) String channelId,
                                     @RequestParam(name = "cursor", required = false) String cursor,
                                     @RequestParam(name = "limit", required = false) String limit) {
        PublicationQueryHandler.cursor(cursor);
        String channel = QueryParams.optional(channelId);
        FindDecisionQueueQuery query = new FindDecisionQueueQuery(WorkspaceId.of(workspace),
                channel == null ? null : ChannelId.of(channel), QueryParams.optional(cursor),
                QueryParams.limit(limit, PublicationListRequest.DEFAULT_LIMIT, PublicationListRequest.MAX_LIMIT));
        return QueryAnswers.await(queries.query(query, ResponseTypes.instanceOf(PublicationPage.class)));
    }
}
