package io.herald.adapters.bluesky;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;

/**
 * An uploaded image as the post refers to it: the blob the PDS answered (its CID, type and size)
 * and the picture's size for the aspect ratio. Kept as the upload's provider id, in the form
 * {@code <cid> <mimeType> <size> <width>x<height>}, so the post needs nothing but the recorded upload.
 */
record BlueskyBlob(String cid, String mimeType, long size, int width, int height) {

    /** The provider id of the upload. */
    String id() {
        return cid + " " + mimeType + " " + size + " " + width + "x" + height;
    }

    static BlueskyBlob parse(String id) {
        String[] parts = id.split(" ");
        if (parts.length != 4) {
            throw new IllegalArgumentException("not a Bluesky upload id");
        }
        String[] ratio = parts[3].split("x");
        return new BlueskyBlob(parts[0], parts[1], Long.parseLong(parts[2]), Integer.parseInt(ratio[0]),
                Integer.parseInt(ratio[1]));
    }

    /** {@code {$type: blob, ref: {$link}, mimeType, size}}. */
    JsonNode json() {
        ObjectNode blob = Json.object().put("$type", "blob");
        blob.putObject("ref").put("$link", cid);
        blob.put("mimeType", mimeType).put("size", size);
        return blob;
    }
}
