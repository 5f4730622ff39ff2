package io.herald.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.bluesky.BlueskyAdapter;
import io.herald.adapters.bluesky.BlueskyPlugin;
import io.herald.adapters.bluesky.BlueskyProperties;
import io.herald.adapters.facebook.FacebookAdapter;
import io.herald.adapters.facebook.FacebookPlugin;
import io.herald.adapters.facebook.FacebookProperties;
import io.herald.adapters.linkedin.LinkedInPlugin;
import io.herald.adapters.linkedin.LinkedInProperties;
import io.herald.adapters.mastodon.MastodonPlugin;
import io.herald.adapters.mastodon.MastodonProperties;
import io.herald.contracts.channel.RetrySafety;
import io.herald.adapters.wordpress.WordPressPlugin;
import io.herald.adapters.wordpress.WordPressProperties;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.contracts.channel.ChannelType;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.ComponentScan;

class ChannelAdaptersConfigurationTest {

    /** Not a {@code @Configuration}, so that no scan of {@code io.herald.adapters} picks it up. */
    @ComponentScan("io.herald.adapters")
    static class ScanLikeTheApplication {
    }

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withUserConfiguration(ScanLikeTheApplication.class);

    @Test
    void bindsTheProvidersPropertiesAndExposesTheAdapters() {
        runner.withPropertyValues(
                        "herald.channels.facebook.graph-base-url=http://127.0.0.1:9/v25.0",
                        "herald.channels.facebook.connect-timeout=2s",
                        "herald.channels.facebook.read-timeout=15s",
                        "herald.channels.linkedin.version=202612",
                        "herald.channels.wordpress.read-timeout=45s",
                        "herald.channels.bluesky.read-timeout=20s",
                        "herald.channels.mastodon.idempotency-window=40m",
                        "herald.channels.mastodon.media-processing-wait=12s")
                .run(context -> {
                    PluginProperties configured = PluginProperties.of(context.getEnvironment());
                    FacebookProperties facebook = configured.bind(FacebookProperties.class);
                    assertThat(facebook.graphBaseUrl()).isEqualTo("http://127.0.0.1:9/v25.0");
                    assertThat(facebook.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(facebook.readTimeout()).isEqualTo(Duration.ofSeconds(15));
                    LinkedInProperties linkedIn = configured.bind(LinkedInProperties.class);
                    assertThat(linkedIn.version()).isEqualTo("202612");
                    assertThat(linkedIn.apiBaseUrl()).isEqualTo("https://api.linkedin.com");
                    assertThat(configured.bind(WordPressProperties.class).readTimeout()).isEqualTo(Duration.ofSeconds(45));
                    ChannelPlugins adapters = context.getBean(ChannelPlugins.class);
                    assertThat(adapters.typeList()).isEqualTo("bluesky, facebook, instagram, linkedin, mastodon, threads or wordpress");
                    assertThat(configured.bind(MastodonProperties.class).idempotencyWindow()).isEqualTo(Duration.ofMinutes(40));
                    assertThat(configured.bind(MastodonProperties.class).mediaProcessingWait())
                            .isEqualTo(Duration.ofSeconds(12));
                    assertThat(adapters.plugin(MastodonPlugin.TYPE).resendWindow()).isEqualTo(Duration.ofMinutes(40));
                    assertThat(adapters.plugin(MastodonPlugin.TYPE).retrySafety(null)).isEqualTo(RetrySafety.PROVIDER_KEY);
                    assertThat(adapters.plugin(BlueskyPlugin.TYPE).resendWindow()).isEqualTo(ChronoUnit.FOREVER.getDuration());
                    BlueskyProperties bluesky = configured.bind(BlueskyProperties.class);
                    assertThat(bluesky.readTimeout()).isEqualTo(Duration.ofSeconds(20));
                    assertThat(bluesky.connectTimeout()).isEqualTo(Duration.ofSeconds(5));
                    assertThat(adapters.forType(BlueskyPlugin.TYPE)).isInstanceOf(BlueskyAdapter.class);
                    assertThat(adapters.forType(FacebookPlugin.TYPE)).isInstanceOf(FacebookAdapter.class);
                    assertThat(adapters.forType(LinkedInPlugin.TYPE).type()).isEqualTo(LinkedInPlugin.TYPE);
                    assertThat(adapters.forType(WordPressPlugin.TYPE).type()).isEqualTo(WordPressPlugin.TYPE);
                });
    }

    @Test
    void aValueThatBreaksAPluginsConstraintStopsTheStart() {
        runner.withPropertyValues("herald.channels.facebook.graph-base-url= ")
                .run(context -> assertThat(context).hasFailed());
    }

    @Test
    void defaultsMatchTheDesign() {
        PluginProperties defaults = PluginProperties.defaults();
        assertThat(defaults.bind(FacebookProperties.class).graphBaseUrl()).isEqualTo("https://graph.facebook.com/v25.0");
        LinkedInProperties linkedIn = defaults.bind(LinkedInProperties.class);
        assertThat(linkedIn.apiBaseUrl()).isEqualTo("https://api.linkedin.com");
        assertThat(linkedIn.version()).isEqualTo("202611");
        assertThat(defaults.bind(MastodonProperties.class).idempotencyWindow()).isEqualTo(Duration.ofMinutes(50));
        assertThat(defaults.bind(MastodonProperties.class).mediaProcessingWait()).isEqualTo(Duration.ofSeconds(30));
        for (var timeouts : List.of(defaults.bind(WordPressProperties.class), defaults.bind(BlueskyProperties.class))) {
            assertThat(timeouts.toString()).contains("connectTimeout=PT5S", "readTimeout=PT30S");
        }
    }
}
