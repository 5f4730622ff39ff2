package io.herald.command.publication;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.time.OffsetDateTime;
import java.util.List;

/** Body of {@code POST /api/v1/workspaces/{ws}/publications} (docs/api.md#the-contract-in-one-page). */
public record PublicationRequest(
        @NotNull @Pattern(regexp = SAFE_ID, message = SAFE_ID_MESSAGE) String calendarEntryId,
        @NotNull @Min(1) @Max(Integer.MAX_VALUE) Long contentVersion,
        @NotNull @Pattern(regexp = SAFE_ID, message = SAFE_ID_MESSAGE) String channelId,
        @NotNull @Pattern(regexp = "publish|draft|update|delete", message = "must be publish, draft, update or delete")
        String action,
        // required except for delete (checked at intake)
        @Valid ContentRequest content,
        OffsetDateTime scheduledAt) {

    /** Ids travel in URLs, logs and provider metadata: a small, safe alphabet. */
    public static final String SAFE_ID = "[A-Za-z0-9][A-Za-z0-9._:-]{0,127}";
    public static final String SAFE_ID_MESSAGE = "must be 1-128 characters of letters, digits, '.', '_', ':' or '-'";

    /**
     * What to publish. Which fields a channel needs, and the provider's limits (how many images,
     * how long a comment), are checked against the channel's type.
     */
    public record ContentRequest(
            @Size(max = 300) String title,
            @Size(max = 100_000) String body,
            @Size(max = 2048) @Pattern(regexp = "https?://\\S+", message = "must be an http(s) URL") String link,
            @Size(max = 100) List<@NotNull @Valid MediaRequest> media,
            @Size(max = 10_000) String firstComment) {

        public ContentRequest(String title, String body, String link) {
            this(title, body, link, null, null);
        }
    }

    /** An image uploaded before ({@code POST …/media}) and the text that describes it. */
    public record MediaRequest(
            @NotNull @Pattern(regexp = "med_[0-9a-f]{64}", message = "must be a media id (med_ and 64 hex digits)")
            String mediaId,
            @Size(max = 1000) String altText) {
    }
}
