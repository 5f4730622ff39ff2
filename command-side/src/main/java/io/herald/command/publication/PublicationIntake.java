package io.herald.command.publication;

import io.herald.adapters.port.ChannelPlugin;
import io.herald.platform.logging.MdcScope;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.command.channel.ChannelConnectionStore;
import io.herald.command.media.MediaStore;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.RequestPublicationCommand;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.messaging.GenericMessage;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;

/**
 * Turns a publication request into a {@link RequestPublicationCommand}. Idempotent by
 * construction: the id comes from the request's body, so a client that timed out may send the
 * same request again and reaches the same publication.
 */
@Service
public class PublicationIntake {

    private static final Logger log = LoggerFactory.getLogger(PublicationIntake.class);

    private final ChannelConnectionStore channels;
    private final EntryOrder entries;
    private final CommandGateway commands;
    private final Clock clock;
    private final ChannelPlugins adapters;
    private final MediaStore media;
    private final UpdateMediaCheck updateMedia;
    private final IntakeCommit newRequests;

    public PublicationIntake(ChannelConnectionStore channels, EntryOrder entries, CommandGateway commands,
                             Clock clock, ChannelPlugins adapters, MediaStore media, UpdateMediaCheck updateMedia,
                             IntakeCommit newRequests) {
        this.newRequests = newRequests;
        this.channels = channels;
        this.entries = entries;
        this.commands = commands;
        this.clock = clock;
        this.adapters = adapters;
        this.media = media;
        this.updateMedia = updateMedia;
    }

    private static Content content(PublicationRequest.ContentRequest request) {
        List<ContentMedia> images = request.media() == null ? List.of() : request.media().stream()
                .map(m -> new ContentMedia(MediaId.of(m.mediaId()), m.altText()))
                .toList();
        return new Content(request.title(), request.body(), request.link(), images, request.firstComment());
    }

    /** Every image must be this workspace's own: another's, or none, is "unknown" (never "forbidden"). */
    private void checkMedia(WorkspaceId workspace, Content content) {
        for (ContentMedia image : content.media()) {
            if (media.find(workspace, image.mediaId()).isEmpty()) {
                throw new HeraldRejection(ErrorCode.UNKNOWN_MEDIA,
                        "workspace " + workspace + " has no media " + image.mediaId() + "; upload it first");
            }
        }
    }

    /** What intake did: created a publication, or found the same one already requested. */
    public record Accepted(RequestPublicationCommand command, boolean created) {
    }

    public Accepted accept(WorkspaceId workspace, PublicationRequest request, String actor) {
        ChannelId channel = new ChannelId(request.channelId());
        ChannelType type = channels.typeOf(workspace, channel).orElseThrow(() -> new HeraldRejection(
                ErrorCode.UNKNOWN_CHANNEL, "workspace " + workspace + " has no channel " + channel));
        PublicationAction action = PublicationAction.fromWireName(request.action());
        if (request.content() == null && action != PublicationAction.DELETE) {
            throw HeraldRejection.invalid(List.of(new FieldViolation("content", "must not be null")));
        }
        Content content = request.content() == null ? new Content(null, null, null) : content(request.content());
        Instant scheduledAt = request.scheduledAt() == null ? null : request.scheduledAt().toInstant();
        ChannelPlugin plugin = adapters.plugin(type);
        plugin.unsupported(action, content).ifPresent(refusal -> {
            throw new HeraldRejection(ErrorCode.ACTION_NOT_SUPPORTED, refusal.message(), List.of(refusal));
        });
        if (action != PublicationAction.DELETE) {
            checkAgainstChannel(type, action, content);
            checkMedia(workspace, content);
        }
        if (action == PublicationAction.UPDATE) {
            updateMedia.check(workspace, request.calendarEntryId(), channel, type, content.media(),
                    request.content().media() != null);
        }

        PublicationId id = IdempotencyKeys.publicationId(workspace, request.calendarEntryId(),
                request.contentVersion(), channel, action);
        if (action.actsOnPost() && !entries.isInLine(id)) {
            if (!entries.hasPostToChange(workspace, request.calendarEntryId(), channel)) {
                throw new HeraldRejection(ErrorCode.NOTHING_TO_CHANGE, "entry " + request.calendarEntryId()
                        + " has no post at channel " + channel + " to " + action.wireName()
                        + " (never published, or deleted)");
            }
            if (entries.targetUnverified(workspace, request.calendarEntryId(), channel)) {
                throw new HeraldRejection(ErrorCode.TARGET_UNVERIFIED, "the post of entry "
                        + request.calendarEntryId() + " at channel " + channel + " was confirmed by an operator"
                        + " without being read back; an operator must confirm a reference the channel can read"
                        + " before it can be " + (action == PublicationAction.DELETE ? "deleted" : "updated"));
            }
        }
        RequestPublicationCommand command = new RequestPublicationCommand(id, workspace, request.calendarEntryId(),
                request.contentVersion(), channel, type, action, content, scheduledAt, clock.instant(), actor,
                plugin.stepKinds(action));
        try (var ignored = MdcScope.with(MdcScope.PUBLICATION_ID, id.value())) {
            boolean created = send(command);
            log.info("publication {} {} for entry {} v{} on {}", id, created ? "requested" : "already requested",
                    request.calendarEntryId(), request.contentVersion(), channel);
            return new Accepted(command, created);
        }
    }

    /**
     * First as a new publication, without reading the store (almost every request is new), in a
     * batch with the others arriving now ({@link IntakeCommit}). One that exists already (a client's
     * retry, another node's request) meets the event store's unique key; sent again as a plain
     * request, it loads the publication and answers like any replay.
     */
    private boolean send(RequestPublicationCommand command) {
        try {
            return newRequests.<Boolean>sendAndWait(new GenericCommandMessage<>(new GenericMessage<>(command),
                    Publication.REQUEST_NEW));
        } catch (AggregateStreamCreationException | ConcurrencyException exists) {
            log.debug("publication {} exists; resending its request as a replay", command.publicationId());
            return commands.<Boolean>sendAndWait(command);
        }
    }

    /** The provider's limits (its adapter knows them), so a post that can never be accepted is never attempted. */
    private void checkAgainstChannel(ChannelType type, PublicationAction action, Content content) {
        List<FieldViolation> violations = new ArrayList<>(adapters.forType(type).validate(content, action));
        if (content.media().stream().map(ContentMedia::mediaId).distinct().count() < content.media().size()) {
            violations.add(new FieldViolation("content.media", "each image may appear once"));
        }
        if (!violations.isEmpty()) {
            throw HeraldRejection.invalid(violations);
        }
    }
}
