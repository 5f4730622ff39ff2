package io.herald.sandbox.mastodon;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.SandboxChannel;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The simulated instance's own admin endpoints under {@code /sandbox/_admin/mastodon}: accounts and
 * their tokens, what an account's statuses are (deleted ones marked), statuses placed by hand,
 * statuses removed by a moderator, faults, how uploads are processed, and whether a repeated {@code Idempotency-Key} is answered
 * with a 500; and the create requests it received, with their keys.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class MastodonAdminController implements SandboxChannel {

    private static final String ADMIN = "/sandbox/_admin/mastodon";

    private final MastodonInstance instance;
    private final MastodonFaults faults;

    MastodonAdminController(MastodonInstance instance, MastodonFaults faults) {
        this.instance = instance;
        this.faults = faults;
    }

    /** {@code {username, token, scopes?}} → {@code {id}}. */
    @PostMapping(ADMIN + "/accounts")
    public ResponseEntity<String> account(@RequestBody JsonNode body) {
        HashSet<String> scopes = new HashSet<>();
        body.path("scopes").forEach(scope -> scopes.add(scope.asText()));
        String id = instance.register(Json.text(body, "username"), Json.text(body, "token"), scopes);
        return json(Json.object().put("id", id));
    }

    @PostMapping(ADMIN + "/accounts/{id}/revoke")
    public ResponseEntity<Void> revoke(@PathVariable String id) {
        instance.revoke(id);
        return ResponseEntity.noContent().build();
    }

    /** {@code [{id, text, inReplyToId, createdAt, mediaIds, editedAt, deleted}]}, newest first. */
    @GetMapping(ADMIN + "/accounts/{id}/statuses")
    public ResponseEntity<String> statuses(@PathVariable String id) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        instance.statuses(id, true).forEach(status -> {
            var node = list.addObject().put("id", status.id()).put("text", status.text())
                    .put("inReplyToId", status.inReplyToId()).put("createdAt", status.createdAt().toString())
                    .put("editedAt", status.editedAt() == null ? null : status.editedAt().toString())
                    .put("deleted", status.deleted());
            var media = node.putArray("mediaIds");
            status.mediaIds().forEach(media::add);
        });
        return json(list);
    }

    /** {@code [{idempotencyKey, at}]}: every create request the account's token made, oldest first. */
    @GetMapping(ADMIN + "/accounts/{id}/creates")
    public ResponseEntity<String> creates(@PathVariable String id) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        instance.createRequests(id).forEach(request -> list.addObject().put("idempotencyKey", request.idempotencyKey())
                .put("at", request.at().toString()));
        return json(list);
    }

        /** A status placed by hand: {@code {text, inReplyToId?, createdAt?}} → {@code {id}}. */
    @PostMapping(ADMIN + "/accounts/{id}/statuses")
    public ResponseEntity<String> seed(@PathVariable String id, @RequestBody JsonNode body) {
        Instant at = Json.text(body, "createdAt") == null ? Instant.now() : Instant.parse(Json.text(body, "createdAt"));
        MastodonInstance.Status status = instance.create(id, Json.text(body, "text"), Json.text(body, "inReplyToId"),
                List.of(), at);
        return json(Json.object().put("id", status.id()));
    }

    /**
     * Removes a status as the instance's moderators would, behind its author's back: reading it then
     * answers 404. 204, or 404 for no such status.
     */
    @DeleteMapping(ADMIN + "/statuses/{statusId}")
    public ResponseEntity<Void> remove(@PathVariable String statusId) {
        return instance.status(statusId).map(status -> {
            instance.delete(status);
            return ResponseEntity.noContent().<Void>build();
        }).orElse(ResponseEntity.notFound().build());
    }

    @PostMapping(ADMIN + "/faults")
    public ResponseEntity<Void> fault(@RequestBody MastodonFaults.Fault fault) {
        faults.add(fault);
        return ResponseEntity.noContent().build();
    }

    /** {@code {checks}}: -1 uploads ready at once; n ≥ 0 answered 202, then 206 to n checks. */
    @PutMapping(ADMIN + "/accounts/{id}/media-processing")
    public ResponseEntity<Void> processing(@PathVariable String id, @RequestBody JsonNode body) {
        instance.processing(id, body.path("checks").asInt(-1));
        return ResponseEntity.noContent().build();
    }

    /** {@code {enabled}}: answer a repeated {@code Idempotency-Key} with a 500 instead of the same status. */
    @PutMapping(ADMIN + "/repeated-key-error")
    public ResponseEntity<Void> repeatedKeyError(@RequestBody JsonNode body) {
        instance.repeatedKeyError(body.path("enabled").asBoolean(false));
        return ResponseEntity.noContent().build();
    }

    private static ResponseEntity<String> json(JsonNode body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.write(body));
    }

    @Override
    public String type() {
        return "mastodon";
    }

    /** The statuses, deleted ones left out, of the account the connection's {@code accessToken} was made for. */
    @Override
    public List<Post> posts(Map<String, Object> connection) {
        return instance.madeFor((String) connection.get("accessToken"))
                .map(account -> instance.statuses(account.id(), false).stream()
                        .map(status -> new Post(status.id(), status.text())).toList())
                .orElse(List.of());
    }
}
