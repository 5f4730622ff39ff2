package io.herald.query.channel;

import io.swagger.v3.oas.annotations.Operation;
import io.herald.contracts.channel.ChannelConnectionView;
import io.herald.contracts.channel.FindChannelConnectionsQuery;
import io.herald.contracts.id.WorkspaceId;
import io.herald.query.web.QueryAnswers;
import java.util.List;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** docs/api.md#the-contract-in-one-page: {@code GET /api/v1/workspaces/{ws}/channels}, connections without secrets. */
@RestController
public class ChannelController {

    private final QueryGateway queries;

    public ChannelController(QueryGateway queries) {
        this.queries = queries;
    }

    @Operation(description = "Lists the workspace's channel connections with their settings, capabilities and health; "
            + "secrets are never shown.")
    @GetMapping(path = "/api/v1/workspaces/{ws}/channels", produces = MediaType.APPLICATION_JSON_VALUE)
    public List<ChannelConnectionView> channels(@PathVariable("ws") String workspace) {
        return QueryAnswers.await(queries.query(new FindChannelConnectionsQuery(WorkspaceId.of(workspace)),
                ResponseTypes.multipleInstancesOf(ChannelConnectionView.class)));
    }
}
