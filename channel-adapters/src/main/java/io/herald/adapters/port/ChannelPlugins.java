package io.herald.adapters.port;

import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.herald.contracts.channel.ChannelType;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The registry of channel plug-ins, by channel type: the one place that knows which channels exist. */
public final class ChannelPlugins {

    private final Map<ChannelType, ChannelPlugin> byType = new TreeMap<>();
    private final UsageReports usage;

    public ChannelPlugins(List<? extends ChannelPlugin> plugins) {
        this(plugins, new UsageReports());
    }

    /** @param usage where these plug-ins' adapters report the providers' usage headers */
    public ChannelPlugins(List<? extends ChannelPlugin> plugins, UsageReports usage) {
        this.usage = usage;
        for (ChannelPlugin plugin : plugins) {
            if (byType.put(plugin.type(), plugin) != null) {
                throw new IllegalStateException("two channel plug-ins for " + plugin.type());
            }
        }
    }

    /** What these plug-ins' adapters report about connections' budgets: listen to keep it. */
    public UsageReports usage() {
        return usage;
    }

    public Optional<ChannelPlugin> find(ChannelType type) {
        return Optional.ofNullable(byType.get(type));
    }

    public Optional<ChannelPlugin> find(String wireName) {
        return byType.values().stream().filter(p -> p.type().wireName().equals(wireName)).findFirst();
    }

    public ChannelPlugin plugin(ChannelType type) {
        return find(type).orElseThrow(() -> new IllegalStateException("no channel plug-in for " + type));
    }

    /** The adapter of a channel type. */
    public ChannelAdapter forType(ChannelType type) {
        return plugin(type).adapter();
    }

    /** Every registered channel type, in name order. */
    public List<ChannelType> types() {
        return List.copyOf(byType.keySet());
    }

    public Map<ChannelType, ChannelPlugin> all() {
        return Collections.unmodifiableMap(byType);
    }

    /** "facebook, linkedin or wordpress": for messages that list the known types. */
    public String typeList() {
        List<String> names = types().stream().map(ChannelType::wireName).toList();
        if (names.size() <= 1) {
            return String.join("", names);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    /**
     * Tells Jackson which settings record each channel type's tag names. Every mapper that reads or
     * writes settings (events, stored rows, HTTP) needs it.
     */
    public Module jacksonModule() {
        SimpleModule module = new SimpleModule("herald-channel-plugins");
        byType.values().forEach(p -> module.registerSubtypes(new NamedType(p.settingsType(), p.type().wireName())));
        return module;
    }
}
