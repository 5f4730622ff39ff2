package io.herald.adapters.mastodon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.herald.adapters.ChannelAdaptersConfiguration;
import io.herald.adapters.PluginProperties;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.error.HeraldRejection;
import io.herald.platform.wire.Json;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MastodonPluginTest {

    private final ChannelPlugins plugins = ChannelAdaptersConfiguration.create(PluginProperties.defaults(),
            OutboundGuard.privateNetworksAllowed(), Clock.systemUTC());
    private final ChannelPlugin plugin = plugins.plugin(MastodonPlugin.TYPE);

    @Test
    void settingsStoredTodayKeepLoadingAsTheSameRecord() throws Exception {
        ObjectMapper mapper = JsonMapper.builder().addModule(plugins.jacksonModule()).build();
        String stored;
        try (InputStream in = getClass().getResourceAsStream("/stored-settings/mastodon_2026_12_05.json")) {
            stored = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }

        ChannelSettings settings = mapper.readValue(stored, ChannelSettings.class);

        assertThat(settings).isEqualTo(new MastodonSettings("https://social.example", "109000000000000001"));
        assertThat(mapper.readTree(mapper.writerFor(ChannelSettings.class).writeValueAsString(settings)))
                .isEqualTo(mapper.readTree(stored));
    }

    @Test
    void aConnectionNeedsItsTokenAgainForAnotherInstanceAndDropsTheAccountOfAnOldToken() {
        ChannelPlugin.Connection made = plugin.connect(Json.object().put("instanceUrl", "https://social.example/")
                .put("accessToken", "t1").put("accountId", "42"), null);
        assertThat(made.settings()).isEqualTo(new MastodonSettings("https://social.example", "42"));
        assertThat(made.secrets().toString()).doesNotContain("t1");
        assertThat(plugin.destinations(made.settings())).isEqualTo(Map.of("instanceUrl", "https://social.example"));

        assertThatThrownBy(() -> plugin.connect(Json.object().put("instanceUrl", "https://other.example"), made))
                .isInstanceOfSatisfying(HeraldRejection.class, r -> assertThat(r.violations())
                        .extracting(v -> v.field()).containsExactly("accessToken"));
        ChannelPlugin.Connection newToken = plugin.connect(Json.object().put("accessToken", "t2"), made);
        assertThat(((MastodonSettings) newToken.settings()).accountId()).isNull();
        ChannelPlugin.Connection kept = plugin.connect(Json.object(), made);
        assertThat(kept).usingRecursiveComparison().isEqualTo(made);
        assertThatThrownBy(() -> plugin.connect(Json.object().put("instanceUrl", "https://social.example")
                .put("accessToken", "t").put("siteUrl", "https://x"), null))
                .isInstanceOfSatisfying(HeraldRejection.class, r -> assertThat(r.violations())
                        .extracting(v -> v.field()).containsExactly("siteUrl"));
        assertThat(plugin.resendWindow()).isEqualTo(Duration.ofMinutes(50));
    }

    @Test
    void theTextIsCountedAndComparedAsMastodonDoes() {
        assertThat(MastodonText.length("see https://example.com/" + "x".repeat(200))).isEqualTo(4 + 23);
        assertThat(MastodonText.length("hi @friend@other.example")).isEqualTo("hi @friend".length());
        assertThat(MastodonText.length("e\u0301".repeat(500))).isEqualTo(500);
        String html = "<p>Tom &amp; Jerry &lt;3<br />line</p><p><a href=\"https://example.com/a\"><span "
                + "class=\"invisible\">https://</span><span class=\"ellipsis\">example.com/a</span><span "
                + "class=\"invisible\"></span></a> <span class=\"h-card\"><a href=\"https://o.example/@f\">@<span>f"
                + "</span></a></span></p>";
        assertThat(MastodonText.comparable(null, MastodonText.plain(html)))
                .isEqualTo(MastodonText.comparable(null, "Tom & Jerry <3\nline\n\nhttps://example.com/a @f@o.example"));
        assertThat(MastodonText.comparable("1", "x")).isNotEqualTo(MastodonText.comparable(null, "x"));
    }
}
