package io.herald.command.media;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * {@code herald.media.*}: {@code max-bytes} is the largest image an upload may carry (8 MB, that is 8 MiB, by
 * default, below every provider's own limit); the body is never read past it.
 */
@ConfigurationProperties("herald.media")
@Validated
public record MediaProperties(@DefaultValue("8MB") @NotNull DataSize maxBytes) {

    public MediaProperties {
        // the whole image is held as one array while it is checked and stored
        if (maxBytes.toBytes() < 1 || maxBytes.toBytes() > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("herald.media.max-bytes must be between 1 byte and 2 GiB");
        }
    }
}
