package io.herald.sandbox.bluesky;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.SandboxChannel;
import java.util.List;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The simulated PDS's own admin endpoints under {@code /sandbox/_admin/bluesky}: accounts, faults,
 * expiring an account's access tokens, revoking its app password, and what its repository holds.
 */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class BlueskyAdminController implements SandboxChannel {

    private final BlueskyRepos repos;
    private final BlueskyFaults faults;

    BlueskyAdminController(BlueskyRepos repos, BlueskyFaults faults) {
        this.repos = repos;
        this.faults = faults;
    }

    /** {@code {handle, appPassword}} → {@code {did}}. */
    @PostMapping("/sandbox/_admin/bluesky/accounts")
    public Map<String, String> account(@RequestBody Map<String, String> body) {
        return Map.of("did", repos.register(body.get("handle"), body.get("appPassword")));
    }

    @PostMapping("/sandbox/_admin/bluesky/faults")
    public ResponseEntity<Void> fault(@RequestBody BlueskyFaults.Fault fault) {
        faults.add(fault);
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/sandbox/_admin/bluesky/accounts/{handle}/expire-access")
    public ResponseEntity<Void> expireAccess(@PathVariable String handle) {
        repos.expireAccess(handle);
        return ResponseEntity.noContent().build();
    }

    @PostMapping("/sandbox/_admin/bluesky/accounts/{handle}/revoke")
    public ResponseEntity<Void> revoke(@PathVariable String handle) {
        repos.revoke(handle);
        return ResponseEntity.noContent().build();
    }

    /** {@code {records: [{uri, cid, value}], sessionsMade}}. */
    @GetMapping("/sandbox/_admin/bluesky/accounts/{handle}")
    public ResponseEntity<String> repository(@PathVariable String handle) {
        var body = Json.object().put("sessionsMade", repos.sessionsMade(handle));
        ArrayNode records = body.putArray("records");
        repos.records(handle).forEach(record -> {
            var node = records.addObject().put("uri", record.uri()).put("cid", record.cid());
            node.set("value", record.value());
        });
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(Json.write(body));
    }

    @Override
    public String type() {
        return "bluesky";
    }

    /** The posts ({@code app.bsky.feed.post} records) in the repository of the connection's {@code handle}. */
    @Override
    public List<Post> posts(Map<String, Object> connection) {
        return repos.records((String) connection.get("handle")).stream()
                .filter(record -> record.uri().contains("/" + BlueskyXrpcController.POST + "/"))
                .map(record -> new Post(record.uri(), record.value().path("text").asText()))
                .toList();
    }
}
