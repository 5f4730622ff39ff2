/**
 * The channel connections view: each connection's settings (never its secrets) and what its last
 * capability probe found, kept by {@link io.herald.query.channel.ChannelViewProjection}
 * (processing group {@code channel-view}).
 */
package io.herald.query.channel;
