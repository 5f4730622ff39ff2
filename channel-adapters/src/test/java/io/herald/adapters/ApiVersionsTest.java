package io.herald.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.port.ApiVersions;
import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.contracts.channel.ChannelType;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each plug-in's provider API versions, as configuration selects them: known with a sunset, known without, unknown. */
class ApiVersionsTest {

    private static ApiVersions of(String type, Map<String, String> configuration) {
        PluginProperties properties = PluginProperties.of(configuration);
        ChannelPlugins plugins = ChannelAdaptersConfiguration.create(properties, OutboundGuard.privateNetworksAllowed(),
                Clock.systemUTC());
        return plugins.plugin(ChannelType.of(type)).apiVersions().orElseThrow();
    }

    @Test
    void aLinkedInVersionIsRetiredAYearAfterItsMonth() {
        ApiVersions versions = of("linkedin", Map.of("herald.channels.linkedin.version", "202611"));
        assertThat(versions.known()).isTrue();
        assertThat(versions.sunsetAt()).contains(Instant.parse("2027-11-01T00:00:00Z"));
        assertThat(versions.retiredReason())
                .isEqualTo("API version retired; update herald.channels.linkedin.version");
    }

    @Test
    void aVersionThePlugInDoesNotKnowHasAnUnknownSunset() {
        ApiVersions versions = of("linkedin", Map.of("herald.channels.linkedin.version", "203001"));
        assertThat(versions.known()).isFalse();
        assertThat(versions.sunsetAt()).isEmpty();
    }

    @Test
    void theGraphVersionIsReadFromTheBaseUrlWithMetasPublishedExpiry() {
        ApiVersions v20 = of("facebook", Map.of("herald.channels.facebook.graph-base-url",
                "https://graph.facebook.com/v20.0"));
        assertThat(v20.configured()).isEqualTo("v20.0");
        assertThat(v20.sunsetAt()).contains(Instant.parse("2026-09-24T00:00:00Z"));
        ApiVersions current = of("facebook", Map.of());
        assertThat(current.configured()).isEqualTo("v25.0");
        assertThat(current.known()).isTrue();
        assertThat(current.sunsetAt()).as("not announced yet").isEmpty();
    }

    @Test
    void aChannelWithoutVersionsDeclaresNone() {
        ChannelPlugins plugins = ChannelAdaptersConfiguration.create(PluginProperties.defaults(), OutboundGuard.privateNetworksAllowed(),
                Clock.systemUTC());
        assertThat(plugins.plugin(ChannelType.of("wordpress")).apiVersions()).isEmpty();
        assertThat(plugins.all().values().stream().map(ChannelPlugin::type)).isNotEmpty();
    }
}
