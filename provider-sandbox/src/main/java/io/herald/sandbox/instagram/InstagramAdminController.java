package io.herald.sandbox.instagram;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.SandboxChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The simulated Instagram's own admin endpoints under {@code /sandbox/_admin/instagram}: accounts and
 * their tokens (with validity and age), the account's containers and published media, the
 * publishing limit's window, how long containers take to process, and faults.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class InstagramAdminController implements SandboxChannel {

    static final String ADMIN = "/sandbox/_admin/instagram";

    private final InstagramAccounts accounts;

    InstagramAdminController(InstagramAccounts accounts) {
        this.accounts = accounts;
    }

    /** {@code {username, token, validForSeconds?, ageSeconds?}} → {@code {id}}. */
    @PostMapping(ADMIN + "/accounts")
    public ResponseEntity<String> account(@RequestBody JsonNode body) {
        Duration validFor = body.hasNonNull("validForSeconds")
                ? Duration.ofSeconds(body.path("validForSeconds").asLong()) : null;
        Duration age = body.hasNonNull("ageSeconds") ? Duration.ofSeconds(body.path("ageSeconds").asLong()) : null;
        var account = accounts.register(Json.text(body, "username"), Json.text(body, "token"), validFor, age);
        return json(Json.object().put("id", account.id()));
    }

    /** {@code [{token, issuedAt, expiresAt}]}, newest first. */
    @GetMapping(ADMIN + "/accounts/{id}/tokens")
    public ResponseEntity<String> tokens(@PathVariable String id) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        accounts.tokensOf(id).forEach(t -> list.addObject().put("token", t.value())
                .put("issuedAt", t.issuedAt().toString()).put("expiresAt", t.expiresAt().toString()));
        return json(list);
    }

    /** {@code [{id, caption, imageUrl, altText, children, status, mediaId}]}, oldest first. */
    @GetMapping(ADMIN + "/accounts/{id}/containers")
    public ResponseEntity<String> containers(@PathVariable String id) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        accounts.containersOf(id).forEach(c -> {
            var node = list.addObject().put("id", c.id()).put("caption", c.caption()).put("imageUrl", c.imageUrl())
                    .put("altText", c.altText()).put("status", accounts.container(c.id()).orElseThrow().status)
                    .put("mediaId", c.mediaId());
            var children = node.putArray("children");
            c.children().forEach(children::add);
        });
        return json(list);
    }

    /** {@code [{id, caption, timestamp, items, containerId, comments}]}, newest first. */
    @GetMapping(ADMIN + "/accounts/{id}/media")
    public ResponseEntity<String> media(@PathVariable String id) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        accounts.mediaOf(id).forEach(m -> {
            var node = list.addObject().put("id", m.id()).put("caption", m.caption())
                    .put("timestamp", m.timestamp().toString()).put("items", m.items())
                    .put("containerId", m.containerId());
            var comments = node.putArray("comments");
            accounts.commentsOf(m.id()).forEach(c -> comments.add(c.text()));
        });
        return json(list);
    }

    /** {@code {quotaTotal, durationSeconds}}: the publishing limit's rolling window. */
    @PutMapping(ADMIN + "/accounts/{id}/publishing-limit")
    public ResponseEntity<Void> limit(@PathVariable String id, @RequestBody JsonNode body) {
        accounts.limit(id, body.path("quotaTotal").asInt(50), body.path("durationSeconds").asInt(86_400));
        return ResponseEntity.noContent().build();
    }

    /** {@code {millis}}: how long a new container stays {@code IN_PROGRESS}. */
    @PutMapping(ADMIN + "/processing")
    public ResponseEntity<Void> processing(@RequestBody JsonNode body) {
        accounts.processing(Duration.ofMillis(body.path("millis").asLong(300)));
        return ResponseEntity.noContent().build();
    }

    @PostMapping(ADMIN + "/faults")
    public ResponseEntity<Void> fault(@RequestBody InstagramAccounts.FaultSpec fault) {
        accounts.fault(fault);
        return ResponseEntity.noContent().build();
    }

    private static ResponseEntity<String> json(JsonNode body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.write(body));
    }

    @Override
    public String type() {
        return "instagram";
    }

    /** The published media of the account the connection's {@code igUserId} names. */
    @Override
    public List<Post> posts(Map<String, Object> connection) {
        Object userId = connection.get("igUserId");
        return userId == null ? List.of() : accounts.mediaOf(userId.toString()).stream()
                .map(m -> new Post(m.id(), m.caption())).toList();
    }
}
