package io.herald.command.channel;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.Instant;
import java.util.List;

/**
 * Body of {@code PUT …/channels/{channelId}} (API.md). Which fields are required depends on the
 * type; secrets left out on an update keep their stored value, unless the update points the
 * connection somewhere new (then the secret is required again).
 */
public record ChannelConnectionRequest(
        @NotNull @Pattern(regexp = "facebook|linkedin|wordpress", message = "must be facebook, linkedin or wordpress")
        String type,
        @Pattern(regexp = "[0-9A-Za-z_.-]{1,64}", message = "must be a Page id") String pageId,
        @Size(max = 4096) String pageAccessToken,
        @Size(max = 4096) String readAccessToken,
        @Pattern(regexp = "urn:li:(person|organization):[A-Za-z0-9_-]{1,64}",
                message = "must be urn:li:person:… or urn:li:organization:…") String authorUrn,
        @Size(max = 4096) String accessToken,
        @Size(max = 20) List<@Pattern(regexp = "[a-z_]{1,64}", message = "must be a scope name") String> scopes,
        @Pattern(regexp = "https?://[^\\s]{1,2000}", message = "must be an http(s) URL") String siteUrl,
        @Size(min = 1, max = 120) String username,
        @Size(max = 200) String applicationPassword,
        Boolean autoReattemptAfterNotFound,
        Instant accessTokenExpiresAt) {

    public ChannelConnectionRequest(String type, String pageId, String pageAccessToken, String readAccessToken,
                                    String authorUrn, String accessToken, List<String> scopes, String siteUrl,
                                    String username, String applicationPassword, Boolean autoReattemptAfterNotFound) {
        this(type, pageId, pageAccessToken, readAccessToken, authorUrn, accessToken, scopes, siteUrl, username,
                applicationPassword, autoReattemptAfterNotFound, null);
    }

    @Override
    public String toString() {
        return "ChannelConnectionRequest[type=" + type + ", secrets redacted]";
    }
}
