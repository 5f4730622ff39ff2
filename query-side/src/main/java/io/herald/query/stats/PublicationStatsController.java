package io.herald.query.stats;

import io.swagger.v3.oas.annotations.Operation;
import io.herald.contracts.id.WorkspaceId;
import io.herald.query.web.QueryAnswers;
import java.time.Clock;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /api/v1/workspaces/{ws}/stats?window=24h|7d}: the console's overview, hour by hour. */
@RestController
public class PublicationStatsController {

    private final QueryGateway queries;
    private final Clock clock;

    public PublicationStatsController(QueryGateway queries, ObjectProvider<Clock> clock) {
        this.queries = queries;
        this.clock = clock.getIfAvailable(Clock::systemUTC);
    }

    @Operation(description = "Publication statistics over a window (from, to): outcomes per hour and each channel's "
            + "median and 95th percentile answer time.")
    @GetMapping(path = "/api/v1/workspaces/{ws}/stats", produces = MediaType.APPLICATION_JSON_VALUE)
    public PublicationStats stats(@PathVariable("ws") String workspace,
                                  @RequestParam(name = "window", required = false) String window) {
        FindPublicationStatsQuery query = new FindPublicationStatsQuery(WorkspaceId.of(workspace),
                StatsWindow.parse(window), clock.instant());
        return QueryAnswers.await(queries.query(query, ResponseTypes.instanceOf(PublicationStats.class)));
    }
}
