package io.herald.contracts.media;

import java.time.Instant;

/**
 * An uploaded image as docs/api.md#media shows it: its id, the type its bytes are, their
 * count and the image's size in pixels. The bytes themselves are served apart ({@code …/content}).
 */
public record MediaView(MediaId mediaId, String contentType, long bytes, int width, int height, Instant createdAt) {
}
