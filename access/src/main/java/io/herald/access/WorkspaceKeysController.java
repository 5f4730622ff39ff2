package io.herald.access;

import io.swagger.v3.oas.annotations.Operation;
import io.herald.platform.web.RequestAttributes;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.validation.constraints.Future;
import java.net.URI;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** docs/api.md#authentication-and-roles: workspaces (system), keys (system or admin), the signing secret (admin). */
@RestController
public class WorkspaceKeysController {

    private static final String ACTOR = RequestAttributes.ACTOR;
    static final String WORKSPACE_ID = "[A-Za-z0-9][A-Za-z0-9._:-]{0,63}";

    private final ApiKeyStore keys;
    private final SigningSecrets signingSecrets;

    public WorkspaceKeysController(ApiKeyStore keys, SigningSecrets signingSecrets) {
        this.keys = keys;
        this.signingSecrets = signingSecrets;
    }

    public record WorkspaceRequest(
            // 64, not the 128 of other ids: the command side's tables keep workspace ids in 64 characters
            @NotNull @Pattern(regexp = WORKSPACE_ID, message = "must be 1-64 characters of letters, digits, '.', '_', ':' or '-'")
            String workspaceId,
            @NotNull @Size(min = 1, max = 200) @Pattern(regexp = "[^\\x00-\\x1F\\x7F]*", message = "must not contain control characters")
            String name) {
    }

    public record KeyRequest(
            @NotEmpty @Size(max = 4) List<@NotNull @Pattern(regexp = "publisher|operator|auditor|admin",
                    message = "must be publisher, operator, auditor or admin") String> roles,
            @Pattern(regexp = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}",
                    message = "must be 1-64 characters of letters, digits, '.', '_' or '-'") String label,
            @Future(message = "must be in the future") Instant expiresAt) {
    }

    public record SigningSecretRequest(
            @NotNull @Size(min = 32, max = 256) @Pattern(regexp = "[\\x21-\\x7e]*",
                    message = "must be printable ASCII without spaces") String secret) {
    }

    @Operation(description = "Creates a workspace, the tenant that owns channels, keys, webhooks and publications. "
            + "Only the system key may call it. Creating a workspace that exists with the same name "
            + "answers 200 with it; 201 means it is new.")
    @PostMapping(path = "/api/v1/admin/workspaces", produces = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<ApiKeyStore.Workspace> createWorkspace(@Valid @RequestBody WorkspaceRequest body) {
        Optional<ApiKeyStore.Workspace> created = keys.createWorkspace(body.workspaceId(), body.name());
        if (created.isPresent()) {
            return ResponseEntity.created(URI.create("/api/v1/workspaces/" + body.workspaceId()))
                    .body(created.get());
        }
        ApiKeyStore.Workspace existing = keys.workspace(body.workspaceId()).orElseThrow();
        if (!existing.name().equals(body.name())) {
            throw new HeraldRejection(ErrorCode.VALIDATION_FAILED, "the workspace exists with another name",
                    List.of(new FieldViolation("workspaceId", "is taken")));
        }
        // the same request again: the same workspace, as with publications
        return ResponseEntity.ok(existing);
    }

    @Operation(description = "Issues an API key with the given roles (publisher, operator, auditor, admin) and "
            + "an optional expiry. The raw key is in this answer only; Herald keeps a hash of it.")
    @PostMapping(path = "/api/v1/workspaces/{ws}/keys", produces = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<ApiKeyStore.IssuedKey> issue(@PathVariable("ws") String ws,
                                                       @Valid @RequestBody KeyRequest body,
                                                       @RequestAttribute(ACTOR) String actor) {
        existing(ws);
        Set<Role> roles = EnumSet.noneOf(Role.class);
        body.roles().forEach(name -> roles.add(Role.fromWireName(name).orElseThrow()));
        ApiKeyStore.IssuedKey issued = keys.issue(ws, roles, body.label() == null ? "key" : body.label(), actor,
                body.expiresAt());
        return ResponseEntity.created(URI.create("/api/v1/workspaces/" + ws + "/keys/" + issued.keyId()))
                .body(issued);
    }

    @Operation(description = "Lists the workspace's keys with their roles, label, creator, expiry and last use "
            + "(recorded at most once a minute); never the keys themselves.")
    @GetMapping(path = "/api/v1/workspaces/{ws}/keys", produces = MediaType.APPLICATION_JSON_VALUE)
    public Map<String, List<ApiKeyStore.KeyInfo>> list(@PathVariable("ws") String ws) {
        existing(ws);
        return Map.of("items", keys.keys(ws));
    }

    @Operation(description = "Revokes a key at once: every later call with it is refused 401 unauthenticated.")
    @DeleteMapping("/api/v1/workspaces/{ws}/keys/{keyId}")
    public ResponseEntity<Void> revoke(@PathVariable("ws") String ws, @PathVariable("keyId") String keyId) {
        existing(ws);
        if (!keys.revoke(ws, keyId)) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no such key in this workspace");
        }
        return ResponseEntity.noContent().build();
    }

    public record SigningState(String workspaceId, boolean signaturesRequired) {
    }

    @Operation(description = "From now on every mutating request to the workspace must carry X-Herald-Signature, "
            + "an HMAC-SHA256 of the request under this secret (the signature security scheme). "
            + "Replaces an earlier secret.")
    @PutMapping(path = "/api/v1/workspaces/{ws}/signing-secret", produces = MediaType.APPLICATION_JSON_VALUE)
    public SigningState signingSecret(@PathVariable("ws") String ws, @Valid @RequestBody SigningSecretRequest body) {
        existing(ws);
        signingSecrets.store(ws, body.secret());
        return new SigningState(ws, true);
    }

    @Operation(description = "Stops requiring signed requests; the API key alone is enough again.")
    @DeleteMapping("/api/v1/workspaces/{ws}/signing-secret")
    public ResponseEntity<Void> stopSigning(@PathVariable("ws") String ws) {
        existing(ws);
        signingSecrets.remove(ws);
        return ResponseEntity.status(HttpStatus.NO_CONTENT).build();
    }

    private void existing(String ws) {
        if (keys.workspace(ws).isEmpty()) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "not found");
        }
    }
}
