/**
 * Media intake (docs/api.md#media): images uploaded before a publication names them, kept per
 * workspace under the hash of their bytes. The type is read from the bytes, the size in pixels
 * from the image's header, and an image that does not decode is refused before it is stored.
 */
package io.herald.command.media;
