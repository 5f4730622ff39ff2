package io.herald.command.webhook;

import io.swagger.v3.oas.annotations.Operation;
import com.fasterxml.jackson.annotation.JsonInclude;
import io.herald.command.publication.PublicationCommandController;
import io.herald.command.publication.PublicationRequest;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.WorkspaceId;
import jakarta.validation.Valid;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Webhook subscriptions of a workspace (docs/api.md#webhooks); the delivery log is the query side's. */
@RestController
public class WebhookController {

    private final WebhookService service;

    public WebhookController(WebhookService service) {
        this.service = service;
    }

    /**
     * A subscription as answered; {@code secret} appears only in the answer that created it or rotated
     * it. {@code paused}: its endpoint stopped answering (timeouts or no connection on its last tries),
     * so its deliveries wait, PENDING, until a {@code POST …/resume} or a PUT; {@code pausedAt} and
     * {@code pausedReason} (the last try's error) only while paused.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record WebhookAnswer(String webhookId, String url, List<String> events, boolean enabled, Instant createdAt,
                                boolean paused, Instant pausedAt, String pausedReason, String secret) {
        static WebhookAnswer of(WebhookStore.Listed listed, String secret) {
            return new WebhookAnswer(listed.webhookId(), listed.url(), listed.events(), listed.enabled(),
                    listed.createdAt(), listed.paused(), listed.pausedAt(), listed.pausedReason(), secret);
        }
    }

    @Operation(description = "Creates or replaces a Standard Webhooks subscription to publication events. The signing "
            + "secret is in the answer when the webhook is created, and never again. A PUT of a paused "
            + "webhook resumes it.")
    @PutMapping("/api/v1/workspaces/{ws}/webhooks/{webhookId}")
    public ResponseEntity<WebhookAnswer> configure(
            @PathVariable("ws") String ws, @PathVariable("webhookId") String webhookId,
            @Valid @RequestBody WebhookRequest body,
            @RequestAttribute(name = PublicationCommandController.ACTOR_ATTRIBUTE, required = false) String actor) {
        requireIds(ws, webhookId);
        WebhookService.Configured configured = service.configure(new WorkspaceId(ws), webhookId, body, actor(actor));
        return ResponseEntity.status(configured.created() ? HttpStatus.CREATED : HttpStatus.OK)
                .body(WebhookAnswer.of(configured.webhook(), configured.secret()));
    }

    @Operation(description = "Lists the workspace's webhooks without their secrets. A webhook whose endpoint stopped "
            + "answering is paused: pausedAt and the reason say since when and why.")
    @GetMapping("/api/v1/workspaces/{ws}/webhooks")
    public Map<String, List<WebhookAnswer>> list(@PathVariable("ws") String ws) {
        requireIds(ws, "list");
        return Map.of("items", service.list(new WorkspaceId(ws)).stream()
                .map(listed -> WebhookAnswer.of(listed, null)).toList());
    }

    @Operation(description = "Deletes a webhook; its pending deliveries are not sent.")
    @DeleteMapping("/api/v1/workspaces/{ws}/webhooks/{webhookId}")
    public ResponseEntity<Void> delete(
            @PathVariable("ws") String ws, @PathVariable("webhookId") String webhookId,
            @RequestAttribute(name = PublicationCommandController.ACTOR_ATTRIBUTE, required = false) String actor) {
        requireIds(ws, webhookId);
        if (!service.delete(new WorkspaceId(ws), webhookId, actor(actor))) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no such webhook");
        }
        return ResponseEntity.noContent().build();
    }

    @Operation(description = "Issues a new signing secret, shown in this answer only. Deliveries carry signatures "
            + "under both secrets for 24 hours, so a receiver can switch without missing any.")
    @PostMapping("/api/v1/workspaces/{ws}/webhooks/{webhookId}/secret")
    public Map<String, String> rotate(
            @PathVariable("ws") String ws, @PathVariable("webhookId") String webhookId,
            @RequestAttribute(name = PublicationCommandController.ACTOR_ATTRIBUTE, required = false) String actor) {
        requireIds(ws, webhookId);
        String secret = service.rotate(new WorkspaceId(ws), webhookId, actor(actor))
                .orElseThrow(() -> new HeraldRejection(ErrorCode.NOT_FOUND, "no such webhook"));
        return Map.of("webhookId", webhookId, "secret", secret);
    }

    /** The senders try a paused subscription's endpoint again; 200 with the subscription, paused or not before. */
    @Operation(description = "Resumes a paused webhook: its held deliveries become due again and are sent in order.")
    @PostMapping("/api/v1/workspaces/{ws}/webhooks/{webhookId}/resume")
    public WebhookAnswer resume(
            @PathVariable("ws") String ws, @PathVariable("webhookId") String webhookId,
            @RequestAttribute(name = PublicationCommandController.ACTOR_ATTRIBUTE, required = false) String actor) {
        requireIds(ws, webhookId);
        return service.resume(new WorkspaceId(ws), webhookId, actor(actor))
                .map(listed -> WebhookAnswer.of(listed, null))
                .orElseThrow(() -> new HeraldRejection(ErrorCode.NOT_FOUND, "no such webhook"));
    }

    private static void requireIds(String ws, String webhookId) {
        if (!ws.matches(PublicationRequest.SAFE_ID) || !webhookId.matches(PublicationRequest.SAFE_ID)) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no such workspace or webhook");
        }
    }

    private static String actor(String actor) {
        return actor == null ? "anonymous" : actor;
    }
}
