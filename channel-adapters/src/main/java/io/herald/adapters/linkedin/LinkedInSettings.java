package io.herald.adapters.linkedin;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.herald.contracts.channel.ChannelSettings;
import java.util.List;

/**
 * A LinkedIn connection's settings.
 *
 * @param authorUrn the author posts go out as ({@code urn:li:person:…} or {@code urn:li:organization:…})
 * @param scopes    the scopes granted to the token, as the admin gave them
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record LinkedInSettings(String authorUrn, List<String> scopes) implements ChannelSettings {

    public LinkedInSettings {
        scopes = scopes == null ? List.of() : List.copyOf(scopes);
    }
}
