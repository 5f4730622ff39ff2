package io.herald.adapters.bluesky;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.herald.adapters.ChannelAdaptersConfiguration;
import io.herald.adapters.PluginProperties;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.contracts.channel.ChannelSettings;
import io.herald.platform.wire.Json;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BlueskyPluginTest {

    private final ChannelPlugins plugins = ChannelAdaptersConfiguration.create(PluginProperties.defaults(),
            OutboundGuard.privateNetworksAllowed(), Clock.systemUTC());
    private final ChannelPlugin plugin = plugins.plugin(BlueskyPlugin.TYPE);

    @Test
    void settingsStoredTodayKeepLoadingAsTheSameRecord() throws Exception {
        ObjectMapper mapper = JsonMapper.builder().addModule(plugins.jacksonModule()).build();
        String stored;
        try (InputStream in = getClass().getResourceAsStream("/stored-settings/bluesky_2026_12_06.json")) {
            stored = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }

        ChannelSettings settings = mapper.readValue(stored, ChannelSettings.class);

        assertThat(settings).isEqualTo(new BlueskySettings("alice.bsky.social", "https://bsky.social"));
        assertThat(mapper.readTree(mapper.writerFor(ChannelSettings.class).writeValueAsString(settings)))
                .isEqualTo(mapper.readTree(stored));
        assertThat(plugin.destinations(settings)).isEqualTo(Map.of("pdsUrl", "https://bsky.social"));
    }

    @Test
    void aNewConnectionIsOnBskySocialUnlessItNamesItsPds() {
        ChannelPlugin.Connection made = plugin.connect(Json.object().put("handle", "alice.bsky.social")
                .put("appPassword", "abcd-efgh-ijkl-mnop"), null);

        assertThat(made.settings()).isEqualTo(new BlueskySettings("alice.bsky.social", BlueskyPlugin.DEFAULT_PDS));
        assertThat(made.secrets().toString()).doesNotContain("abcd-efgh-ijkl-mnop");
    }
}
