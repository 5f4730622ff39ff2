package io.herald.query.publication;

import io.swagger.v3.oas.annotations.Operation;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.FindPublicationQuery;
import io.herald.contracts.publication.FindPublicationsQuery;
import io.herald.contracts.publication.PublicationPage;
import io.herald.contracts.publication.PublicationView;
import java.time.Instant;
import io.herald.query.web.QueryAnswers;
import io.herald.query.web.QueryParams;
import org.axonframework.messaging.responsetypes.ResponseTypes;
import org.axonframework.queryhandling.QueryGateway;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** docs/api.md#publications: the publication view and the publication list. */
@RestController
@RequestMapping(path = "/api/v1/workspaces/{ws}/publications", produces = MediaType.APPLICATION_JSON_VALUE)
public class PublicationController {

    private final QueryGateway queries;
    private final PublicationHistory history;

    public PublicationController(QueryGateway queries, PublicationHistory history) {
        this.queries = queries;
        this.history = history;
    }

    /**
     * The view; with {@code asOf}, the view as it stood at that instant, replayed from the stream
     * (operators and auditors), or 404 before the publication existed.
     */
    @Operation(description = "One publication as its events left it: status, provider reference, steps, attempts with "
            + "their answers, reconciliations and whether it needs an operator's decision. With asOf (operators and "
            + "auditors), the view as it stood at that instant, replayed from the stream.")
    @GetMapping("/{id}")
    public PublicationView publication(@PathVariable("ws") String workspace, @PathVariable("id") String id,
                              @RequestParam(name = "asOf", required = false) String asOf) {
        if (asOf != null) {
            Instant at = QueryParams.instant("asOf", asOf);
            if (at == null) {
                throw QueryParams.invalid("asOf must be an instant such as 2026-12-01T09:00:00Z");
            }
            return history.asOf(WorkspaceId.of(workspace), PublicationId.of(id), at)
                    .map(view -> view.asOf(at))
                    .orElseThrow(() -> new HeraldRejection(ErrorCode.NOT_FOUND,
                            "no publication " + id + " in this workspace at " + at));
        }
        return QueryAnswers.await(queries.query(new FindPublicationQuery(WorkspaceId.of(workspace), PublicationId.of(id)),
                        ResponseTypes.optionalInstanceOf(PublicationView.class)))
                .orElseThrow(() -> new HeraldRejection(ErrorCode.NOT_FOUND, "no publication " + id + " in this workspace"));
    }

    @Operation(description = "Lists the workspace's publications, newest first, a page at a time (nextCursor); filter "
            + "by status, channel, calendar entry (prefix), needsDecision, held, a time window or text.")
    @GetMapping
    public PublicationPage publications(@PathVariable("ws") String workspace,
                                        @RequestParam(name = "status", required = false) String status,
                                        @RequestParam(name = "channelId", required = false) String channelId,
                                        @RequestParam(name = "calendarEntryId", required = false) String calendarEntryId,
                                        @RequestParam(name = "needsDecision", required = false) String needsDecision,
                                        @RequestParam(name = "held", required = false) String held,
                                        @RequestParam(name = "from", required = false) String from,
                                        @RequestParam(name = "to", required = false) String to,
                                        @RequestParam(name = "q", required = false) String text,
                                        @RequestParam(name = "cursor", required = false) String cursor,
                                        @RequestParam(name = "limit", required = false) String limit) {
        String channel = QueryParams.optional(channelId);
        // checked here too, so that a bad cursor is refused before anything reaches the query bus
        PublicationQueryHandler.cursor(cursor);
        FindPublicationsQuery query = new FindPublicationsQuery(WorkspaceId.of(workspace), QueryParams.status(status),
                channel == null ? null : ChannelId.of(channel), QueryParams.optional(calendarEntryId),
                QueryParams.flag("needsDecision", needsDecision), QueryParams.optional(cursor),
                QueryParams.limit(limit, PublicationListRequest.DEFAULT_LIMIT, PublicationListRequest.MAX_LIMIT));
        PublicationSearch search = new PublicationSearch(QueryParams.flag("held", held),
                QueryParams.instant("from", from), QueryParams.instant("to", to), QueryParams.text("q", text, 500));
        return QueryAnswers.await(queries.query(new SearchPublicationsQuery(query, search),
                ResponseTypes.instanceOf(PublicationPage.class)));
    }
}
