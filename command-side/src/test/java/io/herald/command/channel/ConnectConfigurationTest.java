package io.herald.command.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.adapters.ChannelAdaptersConfiguration;
import io.herald.adapters.PluginProperties;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.contracts.channel.ChannelType;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
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

    /**
     * The channel types' answer, written from the plug-ins: how each connects, whether its OAuth app
     * is configured (the reason names the unset keys), the fields its start and its form ask for,
     * which of them are secrets and which a new connection needs.
     */
    @Test
    void theChannelTypesSayHowEachConnectsAndWhatItAsksFor() {
        ChannelPlugins plugins = ChannelAdaptersConfiguration.create(PluginProperties.of(Map.of(
                        "herald.channels.linkedin.client-id", "86app", "herald.channels.linkedin.client-secret", "s")),
                OutboundGuard.privateNetworksAllowed(), Clock.systemUTC());
        List<ChannelConnectFlows.ChannelTypeView> types = new ChannelConnectFlows(plugins, null, null,
                bind(Map.of("herald.public-base-url", "https://herald.example")), null, null, Clock.systemUTC()).types();
        Map<String, ChannelConnectFlows.ChannelTypeView> byType = new java.util.TreeMap<>();
        types.forEach(t -> byType.put(t.type(), t));

        assertThat(types).extracting(ChannelConnectFlows.ChannelTypeView::type).isEqualTo(plugins.types().stream()
                .map(ChannelType::wireName).toList());
        assertThat(byType.keySet()).contains("facebook", "linkedin", "wordpress", "bluesky", "mastodon", "instagram",
                "threads");
        ChannelConnectFlows.ChannelTypeView facebook = byType.get("facebook");
        assertThat(facebook.connect()).isEqualTo("oauth");
        assertThat(facebook.available()).isFalse();
        assertThat(facebook.unavailableReason()).contains("herald.channels.facebook.app-id")
                .contains("herald.channels.facebook.app-secret");
        assertThat(facebook.startFields()).isEmpty();
        assertThat(byType.get("linkedin").available()).isTrue();
        assertThat(byType.get("linkedin").unavailableReason()).isNull();
        assertThat(byType.get("linkedin").label()).isEqualTo("LinkedIn");
        assertThat(byType.get("linkedin").fields()).extracting(ChannelConnectFlows.FieldView::name)
                .containsExactly("authorUrn", "accessToken");

        ChannelConnectFlows.ChannelTypeView mastodon = byType.get("mastodon");
        assertThat(mastodon.connect()).isEqualTo("oauth");
        assertThat(mastodon.available()).isTrue();
        assertThat(mastodon.startFields()).containsExactly(new ChannelConnectFlows.FieldView("instanceUrl",
                "Mastodon instance", false, true, "https://mastodon.social"));

        ChannelConnectFlows.ChannelTypeView wordpress = byType.get("wordpress");
        assertThat(wordpress.connect()).isEqualTo("form");
        assertThat(wordpress.available()).isTrue();
        assertThat(wordpress.label()).isEqualTo("WordPress");
        assertThat(wordpress.startFields()).isEmpty();
        assertThat(wordpress.secretGuide()).startsWith("{siteUrl}/");
        assertThat(wordpress.fields()).extracting(ChannelConnectFlows.FieldView::name, ChannelConnectFlows.FieldView::secret,
                        ChannelConnectFlows.FieldView::required)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("siteUrl", false, true),
                        org.assertj.core.groups.Tuple.tuple("username", false, true),
                        org.assertj.core.groups.Tuple.tuple("applicationPassword", true, true));
        ChannelConnectFlows.ChannelTypeView bluesky = byType.get("bluesky");
        assertThat(bluesky.connect()).isEqualTo("form");
        assertThat(bluesky.fields()).extracting(ChannelConnectFlows.FieldView::name, ChannelConnectFlows.FieldView::secret,
                        ChannelConnectFlows.FieldView::required)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("handle", false, true),
                        org.assertj.core.groups.Tuple.tuple("appPassword", true, true),
                        org.assertj.core.groups.Tuple.tuple("pdsUrl", false, false));

        List<ChannelConnectFlows.ChannelTypeView> withoutAddress = new ChannelConnectFlows(plugins, null, null,
                bind(Map.of()), null, null, Clock.systemUTC()).types();
        assertThat(withoutAddress).filteredOn(t -> t.connect().equals("oauth"))
                .allSatisfy(t -> assertThat(t.unavailableReason()).contains("herald.public-base-url"));
        assertThat(withoutAddress).filteredOn(t -> t.connect().equals("form"))
                .allSatisfy(t -> assertThat(t.available()).isTrue());
        assertThat(types.toString()).doesNotContain("86app");
    }

    private static ConnectProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate("herald", ConnectProperties.class);
    }
}
