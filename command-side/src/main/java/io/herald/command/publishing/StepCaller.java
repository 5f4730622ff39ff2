package io.herald.command.publishing;

import io.herald.adapters.port.ChannelAdapter;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.adapters.port.CommentRequest;
import io.herald.adapters.port.PostChangeRequest;
import io.herald.adapters.port.PrepareRequest;
import io.herald.adapters.port.PublicMediaLinks;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.UploadRequest;
import io.herald.command.media.MediaStore;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.media.MediaView;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * The provider call a started attempt licenses, by where its step kind stands beside the post: an
 * image upload before it (the bytes from Herald's own media store), the post itself by the action
 * (with the uploads recorded so far; or the edit or deletion of the entry's post), or the first
 * comment under it. A step that prepares the whole post (a container) gets the caption and, for
 * each image, the public address the provider fetches it from ({@link PublicMediaLinks}).
 */
@Component
public class StepCaller {

    private final MediaStore media;
    private final ObjectProvider<PublicMediaLinks> links;
    private final ChannelPlugins plugins;

    public StepCaller(MediaStore media, ObjectProvider<PublicMediaLinks> links, ChannelPlugins plugins) {
        this.media = media;
        this.links = links;
        this.plugins = plugins;
    }

    CompletableFuture<PublishOutcome> send(ChannelAdapter adapter, AttemptDecision attempt,
                                           ChannelConnection connection) {
        return switch (attempt.stepOrPost().role()) {
            case PREPARES_POST -> attempt.stepOrPost().preparesOncePerPost() ? prepare(adapter, attempt, connection)
                    : upload(adapter, attempt, connection);
            case FOLLOWS_POST -> adapter.comment(new CommentRequest(attempt.publicationId(), attempt.attemptNo(),
                    attempt.postRef(), attempt.content().firstComment(), connection));
            case MAKES_POST -> switch (attempt.action()) {
                case UPDATE -> adapter.edit(postChange(attempt, connection));
                case DELETE -> adapter.delete(postChange(attempt, connection));
                case PUBLISH, DRAFT -> adapter.publish(new PublishRequest(attempt.publicationId(),
                        attempt.attemptNo(), attempt.action(), attempt.content(), attempt.scheduledAt(), connection,
                        attempt.uploads(), attempt.requestedAt()));
            };
        };
    }

    private static PostChangeRequest postChange(AttemptDecision attempt, ChannelConnection connection) {
        return new PostChangeRequest(attempt.publicationId(), attempt.attemptNo(), attempt.action(),
                attempt.content(), attempt.target(), connection);
    }

    private CompletableFuture<PublishOutcome> upload(ChannelAdapter adapter, AttemptDecision attempt,
                                                     ChannelConnection connection) {
        var stored = media.findWithContent(attempt.workspaceId(), attempt.mediaId());
        if (stored.isEmpty()) {
            // intake checked it; nothing was sent, and it cannot come back by itself
            return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED, "unknown_media",
                    "image " + attempt.mediaId() + " is not in the workspace's media; nothing was sent", null,
                    AttemptTrace.nothingCameBack(null, null)));
        }
        // an image without alt text has none: a stream of nulls would not survive findFirst
        String altText = attempt.content().media().stream()
                .filter(m -> m.mediaId().equals(attempt.mediaId()))
                .map(m -> Optional.ofNullable(m.altText()))
                .findFirst().flatMap(alt -> alt).orElse(null);
        return adapter.uploadMedia(new UploadRequest(attempt.publicationId(), attempt.attemptNo(), attempt.mediaId(),
                altText, stored.get().view().contentType(), stored.get().content(), connection));
    }

    /**
     * The per-post step: the caption with each image's public address, stored type and alt text.
     * Nothing is sent when Herald has no public address or an image is gone: both are final, as
     * neither comes back by itself.
     */
    private CompletableFuture<PublishOutcome> prepare(ChannelAdapter adapter, AttemptDecision attempt,
                                                      ChannelConnection connection) {
        List<ContentMedia> images = attempt.content().media();
        PublicMediaLinks publicLinks = images.isEmpty() ? null : links.getIfAvailable();
        if (!images.isEmpty() && (publicLinks == null || !publicLinks.available())) {
            return notSent("public_media_unavailable", "the provider fetches the images itself, and Herald has no"
                    + " public address to serve them at (herald.public-base-url); nothing was sent");
        }
        Set<String> asUploaded = plugins.find(attempt.channelType()).map(ChannelPlugin::imageTypes).orElse(Set.of());
        List<PrepareRequest.Image> prepared = new ArrayList<>(images.size());
        for (ContentMedia image : images) {
            Optional<MediaView> stored = media.find(attempt.workspaceId(), image.mediaId());
            if (stored.isEmpty()) {
                return notSent("unknown_media", "image " + image.mediaId()
                        + " is not in the workspace's media; nothing was sent");
            }
            String type = stored.get().contentType();
            boolean converted = !asUploaded.isEmpty() && !asUploaded.contains(type);
            // a provider that takes JPEG only fetches a JPEG made of another image
            prepared.add(new PrepareRequest.Image(image.mediaId(), converted
                    ? publicLinks.jpegLinkFor(attempt.workspaceId(), image.mediaId(), attempt.publicationId())
                    : publicLinks.linkFor(attempt.workspaceId(), image.mediaId(), attempt.publicationId()),
                    converted ? "image/jpeg" : type, image.altText(), type));
        }
        return adapter.prepare(new PrepareRequest(attempt.publicationId(), attempt.attemptNo(), attempt.action(),
                attempt.content(), prepared, connection, attempt.requestedAt()));
    }

    private static CompletableFuture<PublishOutcome> notSent(String code, String detail) {
        return CompletableFuture.completedFuture(new PublishOutcome.Failed(FailureKind.REJECTED, code, detail, null,
                AttemptTrace.nothingCameBack(null, null)));
    }
}
