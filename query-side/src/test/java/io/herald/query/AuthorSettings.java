package io.herald.query;

import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.herald.contracts.channel.ChannelSettings;
import java.util.List;

/**
 * Settings of a channel type for the query side's tests, registered as {@code linkedin}: the query
 * side sees settings only as the contracts' tagged {@link ChannelSettings}, and never a plug-in's own
 * record, so its tests bring one of their own.
 */
public record AuthorSettings(String authorUrn, List<String> scopes) implements ChannelSettings {

    /** Tells a mapper that {@code "type": "linkedin"} settings are this record. */
    public static Module jacksonModule() {
        return new SimpleModule("test-channel-settings").registerSubtypes(new NamedType(AuthorSettings.class,
                "linkedin"));
    }
}
