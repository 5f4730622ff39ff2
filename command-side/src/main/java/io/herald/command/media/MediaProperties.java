package io.herald.command.media;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * {@code herald.media.*}: {@code max-bytes} is the largest image an upload may carry (8 MB, that is 8 MiB, by
 * default, below every provider's own limit); the body is never read past it.
 */
@ConfigurationProperties("herald.media")
public record MediaProperties(DataSize maxBytes) {

    public MediaProperties {
        maxBytes = maxBytes != null ? maxBytes : DataSize.ofMegabytes(8);
        // the whole image is held as one array while it is checked and stored
        if (maxBytes.toBytes() < 1 || maxBytes.toBytes() > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("herald.media.max-bytes must be between 1 byte and 2 GiB");
        }
    }
}
