package io.herald.contracts.publication;

import io.herald.contracts.media.MediaId;

/** One image of a post, uploaded to Herald before, with the text that describes it. */
public record ContentMedia(MediaId mediaId, String altText) {
}
