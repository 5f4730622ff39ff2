package io.herald.query.webhook;

import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.Operation;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.WorkspaceId;
import io.herald.query.web.QueryParams;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** docs/api.md#webhooks: a webhook's delivery log, newest first with cursor paging, and redelivery. */
@RestController
public class WebhookDeliveriesController {

    private static final int DEFAULT_LIMIT = 50;
    private static final int MAX_LIMIT = 200;
    private static final Set<String> STATUSES = Set.of(WebhookOutbox.PENDING, WebhookOutbox.DELIVERED,
            WebhookOutbox.FAILED);
    private static final String SAFE_ID = "[A-Za-z0-9][A-Za-z0-9._:-]{0,127}";

    private final WebhookOutbox outbox;
    private final Clock clock;

    public WebhookDeliveriesController(WebhookOutbox outbox, Clock clock) {
        this.outbox = outbox;
        this.clock = clock;
    }

    /** One page of the log. */
    public record DeliveryPage(List<Item> items, String nextCursor) {
    }

    /** A delivery as docs/api.md#webhooks shows it. */
    @Schema(name = "WebhookDelivery")
    public record Item(String deliveryId, String type, String publicationId, String status, int tries,
                       Integer lastStatusCode, String lastError, Instant nextTryAt, Instant createdAt,
                       Instant deliveredAt) {
        static Item of(WebhookOutbox.Delivery d) {
            return new Item(d.deliveryId(), d.type(), d.publicationId(), d.status(), d.tries(), d.lastStatusCode(),
                    d.lastError(), d.nextTryAt(), d.createdAt(), d.deliveredAt());
        }
    }

    @Operation(description = "Lists a webhook's deliveries, newest first, with their status, tries and the last answer "
            + "of the endpoint; filter by status.")
    @GetMapping(path = "/api/v1/workspaces/{ws}/webhooks/{webhookId}/deliveries",
            produces = MediaType.APPLICATION_JSON_VALUE)
    public DeliveryPage deliveries(@PathVariable("ws") String ws, @PathVariable("webhookId") String webhookId,
                                   @RequestParam(name = "status", required = false) String status,
                                   @RequestParam(name = "cursor", required = false) String cursor,
                                   @RequestParam(name = "limit", required = false) String limit) {
        requireIds(ws, webhookId);
        int size = QueryParams.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        List<WebhookOutbox.Delivery> page = outbox.page(new WorkspaceId(ws), webhookId, status(status),
                position(cursor), size + 1);
        boolean more = page.size() > size;
        List<WebhookOutbox.Delivery> shown = more ? page.subList(0, size) : page;
        return new DeliveryPage(shown.stream().map(Item::of).toList(),
                more ? Long.toString(shown.get(shown.size() - 1).position()) : null);
    }

    @Operation(description = "Sends a delivery again with the same id and body, whatever its status; a receiver that "
            + "already handled it can recognise it by its id.")
    @PostMapping("/api/v1/workspaces/{ws}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver")
    public ResponseEntity<Void> redeliver(@PathVariable("ws") String ws, @PathVariable("webhookId") String webhookId,
                                          @PathVariable("deliveryId") String deliveryId) {
        requireIds(ws, webhookId);
        if (!deliveryId.matches(SAFE_ID)
                || !outbox.redeliver(new WorkspaceId(ws), webhookId, deliveryId, clock.instant())) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no such delivery");
        }
        return ResponseEntity.accepted().build();
    }

    private static String status(String raw) {
        String value = QueryParams.optional(raw);
        if (value == null) {
            return null;
        }
        String status = value.trim().toUpperCase(Locale.ROOT);
        if (!STATUSES.contains(status)) {
            throw QueryParams.invalid("status must be one of PENDING, DELIVERED, FAILED");
        }
        return status;
    }

    private static Long position(String cursor) {
        String value = QueryParams.optional(cursor);
        if (value == null) {
            return null;
        }
        try {
            long position = Long.parseLong(value.trim());
            if (position > 0) {
                return position;
            }
        } catch (NumberFormatException notANumber) {
            // answered below
        }
        throw QueryParams.invalid("cursor is not one this endpoint returned");
    }

    private static void requireIds(String ws, String webhookId) {
        if (!ws.matches(SAFE_ID) || !webhookId.matches(SAFE_ID)) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no such workspace or webhook");
        }
    }
}
