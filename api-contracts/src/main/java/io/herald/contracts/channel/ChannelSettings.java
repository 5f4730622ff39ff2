package io.herald.contracts.channel;

import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A connection's settings without its secrets: each channel plug-in has its own record (a Page id,
 * an author, a site, a handle…), stored and carried in events with the channel type as its tag
 * ({@code "type": "facebook"}). The plug-in registry tells Jackson which record a tag names.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "type")
public interface ChannelSettings {
}
