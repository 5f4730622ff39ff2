package io.herald.command.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.adapters.ChannelAdaptersConfiguration;
import io.herald.adapters.PluginProperties;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.port.ChannelPlugins;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Connecting through providers, as configured: a public address no provider could send the browser
 * back to stops the start, naming the key; each channel type says at start-up whether its connect
 * flow is available and, if not, which keys are missing.
 */
@ExtendWith(OutputCaptureExtension.class)
class ConnectConfigurationTest {

    @Test
    void aPublicAddressNoProviderCanReturnToStopsTheStart() {
        for (String unusable : new String[] {"herald.example", "ftp://herald.example", "https://user:pw@herald.example",
                "https://herald.example/?next=1", "https://herald.example/#top", "http://herald.example",
                "https://herald example", "mailto:ops@herald.example"}) {
            assertThatThrownBy(() -> bind(Map.of("herald.public-base-url", unusable)), unusable)
                    .isInstanceOf(BindException.class).rootCause().hasMessageContaining("herald.public-base-url")
                    .hasMessageNotContaining("pw@");
        }
        assertThat(bind(Map.of("herald.public-base-url", "https://herald.example/publishing/")).callback("facebook"))
                .hasToString("https://herald.example/publishing/oauth/callback/facebook");
        assertThat(bind(Map.of("herald.public-base-url", "http://localhost:8080")).callback("mastodon"))
                .hasToString("http://localhost:8080/oauth/callback/mastodon");
        assertThat(bind(Map.of("herald.public-base-url", "http://127.0.0.1:8080")).hasPublicBaseUrl()).isTrue();
        ConnectProperties unset = bind(Map.of());
        assertThat(unset.hasPublicBaseUrl()).isFalse();
        assertThat(unset.channels().connectTtl()).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void eachChannelTypeSaysAtStartUpWhetherItsConnectFlowIsAvailableAndWhichKeyIsMissing(CapturedOutput output) {
        ChannelPlugins plugins = ChannelAdaptersConfiguration.create(PluginProperties.of(Map.of(
                        "herald.channels.facebook.app-id", "1234567890123456",
                        "herald.channels.linkedin.client-id", "86app", "herald.channels.linkedin.client-secret", "s",
                        "herald.channels.threads.app-id", "880app", "herald.channels.threads.app-secret", "ts")),
                OutboundGuard.privateNetworksAllowed(), Clock.systemUTC());

        new ChannelConnectFlows(plugins, null, null, bind(Map.of("herald.public-base-url", "https://herald.example")),
                null, null, Clock.systemUTC());
        assertThat(output.getOut()).contains("channel type facebook: connect through the provider unavailable:"
                        + " set herald.channels.facebook.app-secret")
                .contains("channel type linkedin: connect through the provider available")
                .contains("channel type mastodon: connect through the provider available")
                .contains("channel type wordpress: connects with its form (PUT)")
                .contains("channel type bluesky: connects with its form (PUT)")
                .contains("channel type instagram: connect through the provider unavailable:"
                        + " set herald.channels.instagram.app-id, herald.channels.instagram.app-secret")
                .contains("channel type threads: connect through the provider available")
                .doesNotContain("86app").doesNotContain("880app");

        new ChannelConnectFlows(plugins, null, null, bind(Map.of()), null, null, Clock.systemUTC());
        assertThat(output.getOut()).contains("channel type mastodon: connect through the provider unavailable:"
                        + " set herald.public-base-url")
                .contains("channel type facebook: connect through the provider unavailable:"
                        + " set herald.channels.facebook.app-secret, herald.public-base-url");
    }

    private static ConnectProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate("herald", ConnectProperties.class);
    }
}
