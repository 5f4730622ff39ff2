package io.herald.sandbox.threads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.SandboxChannel;
import java.time.Duration;
import java.time.Instant;
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
 * The simulated Threads API's own admin endpoints under {@code /sandbox/_admin/threads}: users and
 * their tokens (with validity and age), how a user's account behaves (how long containers take to finish, the publishing
 * limits and their window), its threads and replies (deleted ones marked), its containers with
 * their status, the images fetched for them, containers expired by hand, and faults.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class ThreadsAdminController implements SandboxChannel {

    private static final String ADMIN = "/sandbox/_admin/threads";

    private final ThreadsAccounts accounts;
    private final ThreadsFaults faults;

    ThreadsAdminController(ThreadsAccounts accounts, ThreadsFaults faults) {
        this.accounts = accounts;
        this.faults = faults;
    }

    /**
     * {@code {username, token, userId?, validForSeconds?, ageSeconds?}} → {@code {id}}: the token valid
     * 60 days and two days old unless said otherwise (younger than a day, it is too new to refresh).
     */
    @PostMapping(ADMIN + "/users")
    public ResponseEntity<String> user(@RequestBody JsonNode body) {
        Duration validFor = body.hasNonNull("validForSeconds")
                ? Duration.ofSeconds(body.path("validForSeconds").asLong()) : null;
        Duration age = body.hasNonNull("ageSeconds") ? Duration.ofSeconds(body.path("ageSeconds").asLong()) : null;
        return json(Json.object().put("id", accounts.register(Json.text(body, "username"), Json.text(body, "token"),
                Json.text(body, "userId"), validFor, age)));
    }

    /** {@code [{token, issuedAt, expiresAt}]}: the user's working tokens, newest first. */
    @GetMapping(ADMIN + "/users/{id}/tokens")
    public ResponseEntity<String> tokens(@PathVariable String id) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        accounts.tokens(id).forEach(t -> list.addObject().put("token", t[0]).put("issuedAt", t[1])
                .put("expiresAt", t[2]));
        return json(list);
    }

    @PostMapping(ADMIN + "/tokens/revoke")
    public ResponseEntity<Void> revoke(@RequestBody JsonNode body) {
        accounts.revoke(Json.text(body, "token"));
        return ResponseEntity.noContent().build();
    }

    /** {@code {finishDelayMillis, postLimit, replyLimit, windowMillis}}; a field left out keeps its default. */
    @PutMapping(ADMIN + "/users/{id}/settings")
    public ResponseEntity<Void> settings(@PathVariable String id, @RequestBody JsonNode body) {
        ThreadsAccounts.Settings defaults = ThreadsAccounts.Settings.defaults();
        accounts.settings(id, new ThreadsAccounts.Settings(
                body.path("finishDelayMillis").asLong(defaults.finishDelayMillis()),
                body.path("postLimit").asInt(defaults.postLimit()),
                body.path("replyLimit").asInt(defaults.replyLimit()),
                body.path("windowMillis").asLong(defaults.windowMillis())));
        return ResponseEntity.noContent().build();
    }

    /** {@code [{id, mediaType, text, timestamp, replyToId, containerId, children, deleted}]}, newest first. */
    @GetMapping(ADMIN + "/users/{id}/threads")
    public ResponseEntity<String> threads(@PathVariable String id) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        java.util.stream.Stream.concat(accounts.posts(id, false, true).stream(), accounts.posts(id, true, true).stream())
                .forEach(post -> {
                    var node = list.addObject().put("id", post.id()).put("mediaType", post.mediaType())
                            .put("text", post.text()).put("timestamp", post.timestamp().toString())
                            .put("replyToId", post.replyToId()).put("containerId", post.containerId())
                            .put("deleted", post.deleted());
                    var children = node.putArray("children");
                    post.children().forEach(children::add);
                });
        return json(list);
    }

    /** {@code [{id, mediaType, status, errorMessage, imageUrl, carouselItem, replyToId, mediaId}]}, newest first. */
    @GetMapping(ADMIN + "/users/{id}/containers")
    public ResponseEntity<String> containers(@PathVariable String id) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        Instant now = Instant.now();
        accounts.containers(id).forEach(c -> list.addObject().put("id", c.id).put("mediaType", c.mediaType)
                .put("status", c.status(now)).put("errorMessage", c.errorMessage).put("imageUrl", c.imageUrl)
                .put("carouselItem", c.carouselItem).put("replyToId", c.replyToId).put("mediaId", c.mediaId));
        return json(list);
    }

    /** {@code [{url, status, contentType, bytes, at}]}: the images fetched for the user's containers. */
    @GetMapping(ADMIN + "/users/{id}/fetches")
    public ResponseEntity<String> fetches(@PathVariable String id) {
        ArrayNode list = Json.MAPPER.createArrayNode();
        accounts.fetches(id).forEach(f -> list.addObject().put("url", f.url()).put("status", f.status())
                .put("contentType", f.contentType()).put("bytes", f.bytes()).put("at", f.at().toString()));
        return json(list);
    }

    @PostMapping(ADMIN + "/containers/{id}/expire")
    public ResponseEntity<Void> expire(@PathVariable String id) {
        accounts.expire(id);
        return ResponseEntity.noContent().build();
    }

    @PostMapping(ADMIN + "/faults")
    public ResponseEntity<Void> fault(@RequestBody ThreadsFaults.Fault fault) {
        faults.add(fault);
        return ResponseEntity.noContent().build();
    }

    private static ResponseEntity<String> json(JsonNode body) {
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.write(body));
    }

    @Override
    public String type() {
        return "threads";
    }

    /** The threads (replies and deleted ones left out) of the user a connection's {@code threadsUserId} names. */
    @Override
    public List<Post> posts(Map<String, Object> connection) {
        Object user = connection.get("threadsUserId");
        return user == null ? List.of() : accounts.posts(user.toString(), false, false).stream()
                .map(post -> new Post(post.id(), post.text())).toList();
    }
}
