package io.herald.command.channel;

import io.swagger.v3.oas.annotations.Operation;
import io.herald.platform.problem.Problems;

import io.herald.command.publication.PublicationCommandController;
import io.herald.command.publication.PublicationRequest;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.channel.ChannelConnectionView;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** {@code PUT /api/v1/workspaces/{ws}/channels/{channelId}} (docs/api.md#channel-connections). */
@RestController
public class ChannelConnectionController {

    /** How long a PUT or probe waits for the provider before answering with what it knows. */
    private static final Duration PROBE_PATIENCE = Duration.ofSeconds(10);

    private final ChannelConnectionService service;
    private final CapabilityProbes probes;
    private final Clock clock;

    public ChannelConnectionController(ChannelConnectionService service, CapabilityProbes probes, Clock clock) {
        this.service = service;
        this.probes = probes;
        this.clock = clock;
    }

    @Operation(description = "Creates or changes a channel connection (its type, settings and secrets). Secrets are "
            + "encrypted at rest and never shown again. The capabilities are probed at once, and "
            + "publications held for the connection resume when it works again.")
    @PutMapping("/api/v1/workspaces/{ws}/channels/{channelId}")
    public ResponseEntity<ChannelConnectionView> configure(
            @PathVariable("ws") String ws, @PathVariable("channelId") String channelId,
            @RequestBody ObjectNode body,
            @RequestAttribute(name = PublicationCommandController.ACTOR_ATTRIBUTE, required = false) String actor) {
        if (!ws.matches(PublicationRequest.SAFE_ID) || !channelId.matches(PublicationRequest.SAFE_ID)) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no such workspace or channel");
        }
        Connected connected = connect(new WorkspaceId(ws), new ChannelId(channelId), ChannelConnectionRequest.of(body),
                actor == null ? "anonymous" : actor);
        return ResponseEntity.status(connected.created() ? HttpStatus.CREATED : HttpStatus.OK).body(connected.view());
    }

    /** What storing a connection gave: whether it is new, and the connection as a {@code GET} shows it. */
    public record Connected(boolean created, ChannelConnectionView view) {
    }

    /**
     * Stores a connection as a {@code PUT} describes it and probes it: the one way a connection is
     * made, whether its fields came from the admin or from a provider's OAuth grant.
     */
    Connected connect(WorkspaceId workspace, ChannelId channel, ChannelConnectionRequest request, String actor) {
        ChannelConnectionService.Configured configured;
        ChannelConnectionView.Capabilities capabilities;
        // the slot is taken first, so a refused PUT has changed nothing
        try (CapabilityProbes.Slot slot = probes.reserve(workspace)) {
            configured = service.configure(workspace, channel, request, actor);
            capabilities = probeNow(workspace, channel);
        }
        return new Connected(configured.created(), new ChannelConnectionView(workspace, channel, configured.type(),
                configured.settings(), configured.autoReattempt(), capabilities,
                probes.retrySafety(configured.type(), capabilities.reconcile()), clock.instant(), clock.instant(),
                null, null, null, null, null, null, configured.verifyAfterSuccess()));
    }

    /** Re-checks what the connection's credentials allow (docs/api.md#channel-connections, {@code POST …/probe}). */
    @Operation(description = "Checks the connection's credentials and capabilities at the provider again (can it "
            + "publish, can it read a post back) and answers what it found.")
    @PostMapping("/api/v1/workspaces/{ws}/channels/{channelId}/probe")
    public ResponseEntity<ChannelConnectionView.Capabilities> probe(@PathVariable("ws") String ws,
                                                                    @PathVariable("channelId") String channelId) {
        if (!ws.matches(PublicationRequest.SAFE_ID) || !channelId.matches(PublicationRequest.SAFE_ID)
                || service.typeOf(new WorkspaceId(ws), new ChannelId(channelId)).isEmpty()) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no such workspace or channel");
        }
        try (CapabilityProbes.Slot slot = probes.reserve(new WorkspaceId(ws))) {
            return ResponseEntity.ok(probeNow(new WorkspaceId(ws), new ChannelId(channelId)));
        }
    }

    @ExceptionHandler(ProbeSlots.TooManyProbes.class)
    ResponseEntity<ProblemDetail> tooManyProbes(ProbeSlots.TooManyProbes refusal) {
        return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .header(HttpHeaders.RETRY_AFTER, Long.toString(CapabilityProbes.TIME_LIMIT.toSeconds()))
                .body(Problems.of(ErrorCode.RATE_LIMITED, refusal.getMessage()));
    }

    /** The workspace's or the node's connection checks are all running: 429 with {@code Retry-After}, nothing stored. */
    @ExceptionHandler(ConnectionCheckSlots.Busy.class)
    ResponseEntity<ProblemDetail> checksBusy(ConnectionCheckSlots.Busy refusal) {
        return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .header(HttpHeaders.RETRY_AFTER, Long.toString(ConnectionCheckSlots.RETRY_AFTER.toSeconds()))
                .body(Problems.of(ErrorCode.RATE_LIMITED, refusal.getMessage()));
    }

    private ChannelConnectionView.Capabilities probeNow(WorkspaceId workspace, ChannelId channel) {
        try {
            return probes.probe(workspace, channel)
                    .get(PROBE_PATIENCE.toMillis(), TimeUnit.MILLISECONDS)
                    .map(report -> new ChannelConnectionView.Capabilities(report.publish(), report.reconcile()))
                    .orElseGet(ChannelConnectionController::unknown);
        } catch (TimeoutException | ExecutionException e) {
            return unknown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return unknown();
        }
    }

    private static ChannelConnectionView.Capabilities unknown() {
        Capability pending = Capability.unavailable("not checked yet: the provider did not answer the probe in time");
        return new ChannelConnectionView.Capabilities(pending, pending);
    }
}
