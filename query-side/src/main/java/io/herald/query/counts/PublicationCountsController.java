package io.herald.query.counts;

import io.swagger.v3.oas.annotations.Operation;
import io.herald.contracts.id.WorkspaceId;
import io.herald.query.web.QueryAnswers;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/workspaces/{ws}/counts}: publication counts per status and channel. */
@RestController
public class PublicationCountsController {

    private final QueryGateway queries;

    public PublicationCountsController(QueryGateway queries) {
        this.queries = queries;
    }

    @Operation(description = "Counts the workspace's publications by status, per channel and in total, with how many "
            + "need a decision.")
    @GetMapping(path = "/api/v1/workspaces/{ws}/counts", produces = MediaType.APPLICATION_JSON_VALUE)
    public PublicationCounts counts(@PathVariable("ws") String workspace) {
        return QueryAnswers.await(queries.query(new FindPublicationCountsQuery(WorkspaceId.of(workspace)),
                ResponseTypes.instanceOf(PublicationCounts.class)));
    }
}
