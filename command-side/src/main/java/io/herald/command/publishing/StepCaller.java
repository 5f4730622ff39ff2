package io.herald.command.publishing;

import io.herald.adapters.port.ChannelAdapter;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.CommentRequest;
import io.herald.adapters.port.PostChangeRequest;
import io.herald.adapters.port.PublishOutcome;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.UploadRequest;
import io.herald.command.media.MediaStore;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.FailureKind;
import java.util.concurrent.CompletableFuture;
import org.springframework.stereotype.Component;

/**
 * The provider call a started attempt licenses, by where its step kind stands beside the post: an
 * image upload before it (the bytes from Herald's own media store), the post itself by the action
 * (with the uploads recorded so far; or the edit or deletion of the entry's post), or the first
 * comment under it.
 */
@Component
public class StepCaller {

    private final MediaStore media;

    public StepCaller(MediaStore media) {
        this.media = media;
    }

    CompletableFuture<PublishOutcome> send(ChannelAdapter adapter, AttemptDecision attempt,
                                           ChannelConnection connection) {
        return switch (attempt.stepOrPost().role()) {
            case PREPARES_POST -> upload(adapter, attempt, connection);
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
        String altText = attempt.content().media().stream()
                .filter(m -> m.mediaId().equals(attempt.mediaId()))
                .map(ContentMedia::altText)
                .findFirst().orElse(null);
        return adapter.uploadMedia(new UploadRequest(attempt.publicationId(), attempt.attemptNo(), attempt.mediaId(),
                altText, stored.get().view().contentType(), stored.get().content(), connection));
    }
}
