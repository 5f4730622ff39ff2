package io.herald.command.publication;

import io.swagger.v3.oas.annotations.Operation;
import io.herald.platform.web.RequestAttributes;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.DecidePublicationCommand;
import io.herald.contracts.publication.ExecutePublicationCommand;
import io.herald.contracts.publication.OperatorDecision;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationView;
import io.herald.contracts.publication.RequestPublicationCommand;
import io.herald.contracts.publication.RequestReadBackCommand;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** The publication commands of docs/api.md#publications: request, execute, decide. */
@RestController
public class PublicationCommandController {

    /** Set by the deploy module's authentication: who is calling. */
    public static final String ACTOR_ATTRIBUTE = RequestAttributes.ACTOR;

    private static final String PUBLICATION_ID = "pub_[0-9a-f]{64}";
    private static final Logger log = LoggerFactory.getLogger(PublicationCommandController.class);

    private final PublicationIntake intake;
    private final PublicationViews views;
    private final CommandGateway commands;
    private final Clock clock;
    private final PostReferenceCheck postCheck;

    public PublicationCommandController(PublicationIntake intake, PublicationViews views, CommandGateway commands,
                                        Clock clock, PostReferenceCheck postCheck) {
        this.intake = intake;
        this.views = views;
        this.commands = commands;
        this.clock = clock;
        this.postCheck = postCheck;
    }

    @Operation(description = "Requests a publication of one calendar entry version to one channel (publish, draft, "
            + "update or delete). The publication id is derived from workspace, entry, version, channel "
            + "and action, so the same request again is the same publication: 202 when it is new, 200 "
            + "with its current state when it exists, 422 idempotency_key_reused when the content "
            + "differs. Herald then attempts it at its scheduled time.")
    @PostMapping("/api/v1/workspaces/{ws}/publications")
    public ResponseEntity<PublicationView> request(@PathVariable("ws") String ws,
                                                   @Valid @RequestBody PublicationRequest body,
                                                   @RequestAttribute(name = ACTOR_ATTRIBUTE, required = false)
                                                   String actor) {
        WorkspaceId workspace = workspace(ws);
        PublicationIntake.Accepted accepted = intake.accept(workspace, body, actorOrAnonymous(actor));
        RequestPublicationCommand command = accepted.command();
        if (accepted.created()) {
            URI location = URI.create("/api/v1/workspaces/" + ws + "/publications/" + command.publicationId());
            return ResponseEntity.accepted().location(location).body(newlyRequested(command));
        }
        PublicationView existing = views.awaitUpdatedSince(workspace, command.publicationId(), Instant.MIN)
                .orElseGet(() -> newlyRequested(command));
        return ResponseEntity.ok(existing);
    }

    @Operation(description = "Runs the publication now, or again after a failure that is safe to retry. Refused while "
            + "an attempt runs, after it succeeded, and while an unknown outcome waits for an "
            + "operator's decision.")
    @PostMapping("/api/v1/workspaces/{ws}/publications/{id}/execute")
    public ResponseEntity<PublicationView> execute(@PathVariable("ws") String ws, @PathVariable("id") String id,
                                                   @RequestAttribute(name = ACTOR_ATTRIBUTE, required = false)
                                                   String actor) {
        WorkspaceId workspace = workspace(ws);
        PublicationId publication = publication(id);
        Instant at = clock.instant();
        send(new ExecutePublicationCommand(publication, workspace, actorOrAnonymous(actor), at), publication);
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(current(workspace, publication, at));
    }

    /** An operator's decision (docs/api.md#operators-and-auditors). */
    public record DecisionRequest(
            @NotNull @Pattern(regexp = "confirm_published|confirm_not_published|reattempt|abandon|confirm_removed"
                    + "|republish", message = "must be confirm_published, confirm_not_published, reattempt, abandon,"
                    + " confirm_removed or republish")
            String decision,
            @Valid ProviderRefRequest providerRef,
            @Size(max = 2000) String note) {
    }

    public record ProviderRefRequest(@Size(max = 512) String id,
                                     @Size(max = 2048) @Pattern(regexp = "https?://\\S+",
                                             message = "must be an http(s) URL") String url) {
    }

    @Operation(description = "An operator's decision on a publication that needs one (an unknown outcome, a held or "
            + "failed one): confirm_published with the post it created, confirm_not_published, "
            + "reattempt or abandon; on a post that vanished after success, confirm_removed or republish. A "
            + "confirmed post is checked at the provider where the channel can read it.")
    @PostMapping("/api/v1/workspaces/{ws}/publications/{id}/decisions")
    public ResponseEntity<PublicationView> decide(@PathVariable("ws") String ws, @PathVariable("id") String id,
                                                  @Valid @RequestBody DecisionRequest body,
                                                  @RequestAttribute(name = ACTOR_ATTRIBUTE, required = false)
                                                  String actor) {
        WorkspaceId workspace = workspace(ws);
        PublicationId publication = publication(id);
        Instant at = clock.instant();
        ProviderRef named = body.providerRef() == null ? null
                : new ProviderRef(body.providerRef().id(), body.providerRef().url());
        ProviderRef ref = named;
        OperatorDecision decision = OperatorDecision.fromWireName(body.decision());
        Boolean verified = null;
        if (decision == OperatorDecision.CONFIRM_PUBLISHED && named != null) {
            // a post named for a publish or draft is read back first; the aggregate refuses one that was not.
            // The view may not show a publication requested a moment ago yet: wait for it as intake does.
            Optional<PublicationView> view = views.awaitUpdatedSince(workspace, publication, Instant.MIN)
                    .filter(v -> PostReferenceCheck.namesThePost(v, named));
            if (view.isPresent()) {
                PostReferenceCheck.Checked checked = postCheck.check(view.get(), named);
                ref = checked.ref();
                verified = checked.verified();
            }
        }
        send(new DecidePublicationCommand(publication, workspace, decision, ref, actorOrAnonymous(actor), body.note(),
                at, verified), publication);
        log.info("decision {} on {} recorded for {}", body.decision(), publication, actorOrAnonymous(actor));
        return ResponseEntity.ok(current(workspace, publication, at));
    }

    /** Read back now, e.g. after new credentials made it possible (docs/api.md#operators-and-auditors). */
    @Operation(description = "Reads the post back from the provider now instead of waiting for the settle delay; the "
            + "result is recorded as a reconciliation of the publication.")
    @PostMapping("/api/v1/workspaces/{ws}/publications/{id}/reconcile")
    public ResponseEntity<PublicationView> reconcile(@PathVariable("ws") String ws, @PathVariable("id") String id,
                                                     @RequestAttribute(name = ACTOR_ATTRIBUTE, required = false)
                                                     String actor) {
        WorkspaceId workspace = workspace(ws);
        PublicationId publication = publication(id);
        Instant at = clock.instant();
        send(new RequestReadBackCommand(publication, workspace, actorOrAnonymous(actor), at), publication);
        // the read itself comes later; what the view shows now is the state it starts from
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(views.find(workspace, publication)
                .orElseThrow(() -> new HeraldRejection(ErrorCode.NOT_FOUND, "no publication " + publication)));
    }

    private void send(Object command, PublicationId publication) {
        try {
            commands.sendAndWait(command);
        } catch (AggregateNotFoundException e) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no publication " + publication);
        }
    }

    private PublicationView current(WorkspaceId workspace, PublicationId publication, Instant since) {
        return views.awaitUpdatedSince(workspace, publication, since)
                .orElseThrow(() -> new HeraldRejection(ErrorCode.NOT_FOUND, "no publication " + publication));
    }

    private static PublicationView newlyRequested(RequestPublicationCommand c) {
        return new PublicationView(c.publicationId(), c.workspaceId(), c.calendarEntryId(), c.contentVersion(),
                c.channelId(), c.channelType(), c.action(), PublicationStatus.REQUESTED, c.content().hash(),
                c.scheduledAt(), c.requestedAt(), null, List.of(), List.of(), false, null, c.requestedAt(),
                PublicationView.Step.planned(c.action(), c.content(), c.steps()), null);
    }

    static WorkspaceId workspace(String ws) {
        if (ws == null || !ws.matches(PublicationRequest.SAFE_ID)) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no such workspace");
        }
        return new WorkspaceId(ws);
    }

    private static PublicationId publication(String id) {
        if (id == null || !id.matches(PUBLICATION_ID)) {
            throw new HeraldRejection(ErrorCode.NOT_FOUND, "no such publication");
        }
        return new PublicationId(id);
    }

    static String actorOrAnonymous(String actor) {
        return actor == null ? "anonymous" : actor;
    }
}
