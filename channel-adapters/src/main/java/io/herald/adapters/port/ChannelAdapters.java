package io.herald.adapters.port;

import io.herald.contracts.channel.ChannelType;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The adapters by channel type. */
public final class ChannelAdapters {

    private final Map<ChannelType, ChannelAdapter> byType = new EnumMap<>(ChannelType.class);

    public ChannelAdapters(List<ChannelAdapter> adapters) {
        for (ChannelAdapter adapter : adapters) {
            if (byType.put(adapter.type(), adapter) != null) {
                throw new IllegalStateException("two adapters for " + adapter.type());
            }
        }
    }

    public ChannelAdapter forType(ChannelType type) {
        ChannelAdapter adapter = byType.get(type);
        if (adapter == null) {
            throw new IllegalStateException("no adapter for " + type);
        }
        return adapter;
    }
}
