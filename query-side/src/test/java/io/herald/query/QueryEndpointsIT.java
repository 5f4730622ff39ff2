package io.herald.query;

import static io.herald.query.publication.PublicationEvents.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelCapabilitiesProbedEvent;
import io.herald.contracts.channel.ChannelConnectionConfiguredEvent;
import io.herald.contracts.channel.ChannelConnectionId;
import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.query.channel.ChannelController;
import io.herald.query.channel.ChannelQueryHandler;
import io.herald.query.channel.ChannelViewProjection;
import io.herald.query.channel.ChannelViewRepository;
import io.herald.query.counts.PublicationCountsController;
import io.herald.query.counts.PublicationCountsQueryHandler;
import io.herald.query.decisionqueue.DecisionQueueController;
import io.herald.query.decisionqueue.DecisionQueueQueryHandler;
import io.herald.query.publication.PublicationController;
import io.herald.query.publication.PublicationQueryHandler;
import io.herald.query.publication.PublicationViewProjection;
import io.herald.query.publication.PublicationViewRepository;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.axonframework.eventhandling.AnnotationEventHandlerAdapter;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.queryhandling.DefaultQueryGateway;
import org.axonframework.queryhandling.QueryGateway;
import org.axonframework.queryhandling.SimpleQueryBus;
import org.axonframework.queryhandling.annotation.AnnotationQueryHandlerAdapter;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.json.MappingJackson2HttpMessageConverter;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * The read endpoints end to end inside the module: events delivered through Axon's annotation
 * adapters (so the {@code @SequenceNumber} and {@code @ResetHandler} wiring is exercised), queries
 * answered over a real query bus, HTTP served by Spring MVC, rows in a real PostgreSQL.
 */
class QueryEndpointsIT {

    private static final WorkspaceId ACME = WorkspaceId.of("acme");

    private final ReadStore store = ReadStore.shared();
    private AnnotationEventHandlerAdapter publicationEvents;
    private AnnotationEventHandlerAdapter channelEvents;
    private MockMvc http;

    @BeforeEach
    void wire() {
        store.clear();
        PublicationViewRepository publications = new PublicationViewRepository(store.jdbc(), store.objectMapper());
        ChannelViewRepository channels = new ChannelViewRepository(store.jdbc(), store.objectMapper());
        publicationEvents = new AnnotationEventHandlerAdapter(new PublicationViewProjection(publications));
        channelEvents = new AnnotationEventHandlerAdapter(new ChannelViewProjection(channels));

        SimpleQueryBus bus = SimpleQueryBus.builder().build();
        for (Object handler : List.of(new PublicationQueryHandler(publications),
                new DecisionQueueQueryHandler(publications), new ChannelQueryHandler(channels),
                new PublicationCountsQueryHandler(store.jdbc()))) {
            new AnnotationQueryHandlerAdapter<>(handler).subscribe(bus);
        }
        QueryGateway gateway = DefaultQueryGateway.builder().queryBus(bus).build();
        http = MockMvcBuilders.standaloneSetup(new PublicationController(gateway, null),
                        new DecisionQueueController(gateway), new ChannelController(gateway),
                        new PublicationCountsController(gateway))
                .setControllerAdvice(new RejectionsAsStatus())
                .setMessageConverters(new MappingJackson2HttpMessageConverter(store.objectMapper()))
                .build();
    }

    @Test
    void servesAPublicationAsApiMdShowsIt() throws Exception {
        PublicationId id = failedPublication("entry-42");

        http.perform(get("/api/v1/workspaces/acme/publications/{id}", id.value()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.publicationId").value(id.value()))
                .andExpect(jsonPath("$.workspaceId").value("acme"))
                .andExpect(jsonPath("$.channelId").value("fb-main"))
                .andExpect(jsonPath("$.channelType").value("facebook"))
                .andExpect(jsonPath("$.action").value("publish"))
                .andExpect(jsonPath("$.status").value("FAILED"))
                .andExpect(jsonPath("$.needsDecision").value(true))
                .andExpect(jsonPath("$.decisionReason").value("attempt 1 failed (190): Page access token required"))
                .andExpect(jsonPath("$.attempts[0].attemptNo").value(1))
                .andExpect(jsonPath("$.attempts[0].outcome").value("FAILED"))
                .andExpect(jsonPath("$.attempts[0].httpStatus").value(400))
                .andExpect(jsonPath("$.attempts[0].startedAt").value("2026-12-01T09:00:01Z"))
                .andExpect(jsonPath("$.requestedAt").value("2026-12-01T09:00:00Z"))
                .andExpect(jsonPath("$.reconciliations").isArray());
    }

    @Test
    void anotherWorkspacesPublicationIsNotFound() throws Exception {
        PublicationId id = failedPublication("entry-42");

        http.perform(get("/api/v1/workspaces/globex/publications/{id}", id.value()))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.code").value("not_found"));
    }

    @Test
    void listsPageByPageWithTheCursor() throws Exception {
        for (int i = 0; i < 5; i++) {
            failedPublication("entry-" + i);
        }

        JsonNode first = page("limit=2&status=FAILED");
        JsonNode second = page("limit=2&status=FAILED&cursor=" + first.get("nextCursor").asText());
        JsonNode third = page("limit=2&status=FAILED&cursor=" + second.get("nextCursor").asText());

        assertThat(first.get("items")).hasSize(2);
        assertThat(second.get("items")).hasSize(2);
        assertThat(third.get("items")).hasSize(1);
        assertThat(third.get("nextCursor").isNull()).isTrue();
        List<String> ids = new java.util.ArrayList<>();
        for (JsonNode page : List.of(first, second, third)) {
            page.get("items").forEach(item -> ids.add(item.get("publicationId").asText()));
        }
        assertThat(ids).doesNotHaveDuplicates().hasSize(5);
        http.perform(get("/api/v1/workspaces/acme/publications?channelId=li-main"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items.length()").value(0))
                .andExpect(jsonPath("$.nextCursor").isEmpty());
    }

    @Test
    void refusesInvalidQueryParameters() throws Exception {
        for (String query : List.of("status=PUBLISHED", "limit=0", "limit=201", "limit=ten", "cursor=%25%25",
                "needsDecision=maybe", "cursor=aGVsbG8")) {
            http.perform(get("/api/v1/workspaces/acme/publications?" + query))
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.code").value("validation_failed"));
        }
        http.perform(get("/api/v1/workspaces/acme/decisions?limit=500"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.code").value("validation_failed"));
    }

    @Test
    void servesTheDecisionQueueTheChannelsAndTheCounts() throws Exception {
        PublicationId failed = failedPublication("entry-1");
        channelEvents.handle(new GenericDomainEventMessage<>("ChannelConnection", "chn_acme/li-main", 0,
                new ChannelConnectionConfiguredEvent(ChannelConnectionId.of(ACME, ChannelId.of("li-main")), ACME,
                        ChannelId.of("li-main"), ChannelType.of("linkedin"),
                        new AuthorSettings("urn:li:person:abc", List.of("w_member_social")),
                        1, false, "admin", T0)));
        channelEvents.handle(new GenericDomainEventMessage<>("ChannelConnection", "chn_acme/li-main", 1,
                new ChannelCapabilitiesProbedEvent(ChannelConnectionId.of(ACME, ChannelId.of("li-main")), ACME,
                        ChannelId.of("li-main"), 1, Capability.ok(),
                        Capability.unavailable("missing r_member_social"), RetrySafety.NONE, T0.plusSeconds(1))));

        http.perform(get("/api/v1/workspaces/acme/decisions"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items.length()").value(1))
                .andExpect(jsonPath("$.items[0].publicationId").value(failed.value()));
        http.perform(get("/api/v1/workspaces/acme/channels"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.length()").value(1))
                .andExpect(jsonPath("$[0].type").value("linkedin"))
                .andExpect(jsonPath("$[0].settings.authorUrn").value("urn:li:person:abc"))
                .andExpect(jsonPath("$[0].capabilities.publish.available").value(true))
                .andExpect(jsonPath("$[0].capabilities.reconcile.available").value(false))
                .andExpect(jsonPath("$[0].capabilities.reconcile.reason").value("missing r_member_social"));
        http.perform(get("/api/v1/workspaces/acme/counts"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.total").value(1))
                .andExpect(jsonPath("$.needsDecision").value(1))
                .andExpect(jsonPath("$.byStatus.FAILED").value(1))
                .andExpect(jsonPath("$.byChannel.fb-main.total").value(1));
        http.perform(get("/api/v1/workspaces/globex/channels"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.length()").value(0));
    }

    @Test
    void aResetThroughAxonClearsBothViews() throws Exception {
        failedPublication("entry-1");
        publicationEvents.prepareReset();
        channelEvents.prepareReset();

        assertThat(store.count("publication_view")).isZero();
        http.perform(get("/api/v1/workspaces/acme/publications"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items.length()").value(0));
    }

    private PublicationId failedPublication(String entry) throws Exception {
        ChannelId channel = ChannelId.of("fb-main");
        PublicationId id = IdempotencyKeys.publicationId(ACME, entry, 3, channel, PublicationAction.PUBLISH);
        Content content = new Content(null, "text of " + entry, null);
        deliver(id, 0, new PublicationRequestedEvent(id, ACME, entry, 3, channel, ChannelType.of("facebook"),
                PublicationAction.PUBLISH, content, content.hash(), null, T0, "calendar"));
        deliver(id, 1, new PublicationAttemptedEvent(id, ACME, channel, 1, AttemptTrigger.INITIAL, id.value(),
                content.hash(), T0.plusSeconds(1), T0.plus(Duration.ofMinutes(2))));
        deliver(id, 2, new PublicationFailedEvent(id, ACME, 1, FailureKind.REJECTED, "190",
                "Page access token required",
                new AttemptTrace("fp", "page-1", T0.plusSeconds(1), true, 400, "190", "trace", 80), null,
                T0.plusSeconds(2)));
        return id;
    }

    private void deliver(PublicationId id, long sequence, Object event) throws Exception {
        publicationEvents.handle(new GenericDomainEventMessage<>("Publication", id.value(), sequence, event));
    }

    private JsonNode page(String query) throws Exception {
        String body = http.perform(get("/api/v1/workspaces/acme/publications?" + query))
                .andExpect(status().isOk())
                .andReturn().getResponse().getContentAsString();
        return store.objectMapper().readTree(body);
    }

    /** Stands in for the application's problem+json mapping, which lives in the deploy module. */
    @RestControllerAdvice
    static class RejectionsAsStatus {
        @ExceptionHandler(HeraldRejection.class)
        ResponseEntity<Map<String, String>> rejected(HeraldRejection rejection) {
            return ResponseEntity.status(rejection.code().httpStatus())
                    .body(Map.of("code", rejection.code().code(), "detail", rejection.detail()));
        }
    }
}
