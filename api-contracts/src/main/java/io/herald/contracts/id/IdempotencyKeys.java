package io.herald.contracts.id;

import io.herald.contracts.publication.PublicationAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Derives a publication's idempotency key from what is being published, never from the moment of
 * the call: a client that retries after a timeout reaches the same publication.
 */
public final class IdempotencyKeys {

    private static final String VERSION = "v1";

    private IdempotencyKeys() {
    }

    public static PublicationId publicationId(WorkspaceId workspace, String calendarEntryId, long contentVersion,
                                              ChannelId channel, PublicationAction action) {
        String canonical = String.join("\n", VERSION, workspace.value(), calendarEntryId,
                Long.toString(contentVersion), channel.value(), action.wireName());
        return new PublicationId("pub_" + sha256Hex(canonical));
    }

    public static String sha256Hex(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JVM", e);
        }
    }
}
