package io.herald.adapters.port;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.media.MediaId;

/**
 * One attempt at uploading one image for a post. Repeatable: an upload no post uses is invisible
 * to the audience, so an unknown one is simply uploaded again.
 */
public record UploadRequest(
        PublicationId publicationId,
        int attemptNo,
        MediaId mediaId,
        String altText,
        String contentType,
        byte[] bytes,
        ChannelConnection connection) {

    /** A file name for providers that want one, from the id and the type (never the client's name). */
    public String fileName() {
        String extension = switch (contentType) {
            case "image/jpeg" -> "jpg";
            case "image/gif" -> "gif";
            case "image/webp" -> "webp";
            default -> "png";
        };
        return mediaId.value().substring(4, 20) + "." + extension;
    }
}
