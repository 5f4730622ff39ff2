package io.herald.command.media;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * {@code herald.media.*}.
 *
 * @param maxBytes              the largest image an upload may carry (8 MB, that is 8 MiB, by default, below every
 *                              provider's own limit); the body is never read past it
 * @param maxSide               the widest or tallest an image may declare itself, anywhere in its header; checked
 *                              before any image reader sees the bytes, it bounds the rows the readers allocate
 * @param maxConcurrentDecodes  image checks decoding at once on a node
 * @param decodeWait            how long an upload waits for a decode slot before it is refused (429)
 * @param decodeMemory          the memory the checks decoding at once may need between them, by their headers'
 *                              estimate; unset, a quarter of the heap
 * @param quotaBytes            the bytes of images a workspace may keep
 * @param retention             how long an image that no publication uses is kept after its upload or last use
 * @param retentionSweepInterval how often the images past their retention are looked for
 * @param publicLinkTtl         how long an address a provider fetches an image at
 *                              ({@code /media/public/{token}}) stays valid after it was made
 */
@ConfigurationProperties("herald.media")
@Validated
public record MediaProperties(
        @DefaultValue("8MB") @NotNull DataSize maxBytes,
        @DefaultValue("16384") int maxSide,
        @DefaultValue("2") int maxConcurrentDecodes,
        @DefaultValue("2s") @NotNull Duration decodeWait,
        DataSize decodeMemory,
        @DefaultValue("1GB") @NotNull DataSize quotaBytes,
        @DefaultValue("30d") @NotNull Duration retention,
        @DefaultValue("1h") @NotNull Duration retentionSweepInterval,
        @DefaultValue("1h") @NotNull Duration publicLinkTtl) {

    public MediaProperties {
        // the whole image is held as one array while it is checked and stored
        if (maxBytes.toBytes() < 1 || maxBytes.toBytes() > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("herald.media.max-bytes must be between 1 byte and 2 GiB");
        }
        if (maxSide < 1) {
            throw new IllegalArgumentException("herald.media.max-side must be at least 1");
        }
        if (maxConcurrentDecodes < 1) {
            throw new IllegalArgumentException("herald.media.max-concurrent-decodes must be at least 1");
        }
        if (publicLinkTtl.isNegative() || publicLinkTtl.isZero()) {
            throw new IllegalArgumentException("herald.media.public-link-ttl must be positive");
        }
        if (quotaBytes.toBytes() < 1) {
            throw new IllegalArgumentException("herald.media.quota-bytes must be at least 1 byte");
        }
    }

    /** The decode budget in bytes: the configured one, or a quarter of the heap. */
    public long decodeBudgetBytes() {
        return decodeMemory != null ? decodeMemory.toBytes() : Runtime.getRuntime().maxMemory() / 4;
    }
}
