package io.herald.contracts.publication;

import io.herald.contracts.media.MediaId;

/** An image whose upload to the provider is recorded as succeeded: what the post may use. */
public record UploadedMedia(MediaId mediaId, String altText, ProviderRef providerRef) {
}
