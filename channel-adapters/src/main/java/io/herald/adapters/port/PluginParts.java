package io.herald.adapters.port;

import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelType;

/**
 * What every channel plug-in names about itself, written once: a plug-in extends this with its own
 * records and adapter and states only its rules ({@link ChannelPlugin#connect} and the defaults it
 * overrides).
 */
public abstract class PluginParts implements ChannelPlugin {

    private final ChannelType type;
    private final ChannelAdapter adapter;
    private final Class<? extends ChannelSettings> settingsType;
    private final Class<? extends ChannelSecrets> secretsType;
    private final Class<?> connectionForm;

    protected PluginParts(ChannelType type, ChannelAdapter adapter,
                          Class<? extends ChannelSettings> settingsType, Class<? extends ChannelSecrets> secretsType,
                          Class<?> connectionForm) {
        this.type = type;
        this.adapter = adapter;
        this.settingsType = settingsType;
        this.secretsType = secretsType;
        this.connectionForm = connectionForm;
    }

    @Override
    public final ChannelType type() {
        return type;
    }

    @Override
    public final ChannelAdapter adapter() {
        return adapter;
    }

    @Override
    public final Class<? extends ChannelSettings> settingsType() {
        return settingsType;
    }

    @Override
    public final Class<? extends ChannelSecrets> secretsType() {
        return secretsType;
    }

    @Override
    public final Class<?> connectionForm() {
        return connectionForm;
    }
}
