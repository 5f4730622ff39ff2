package io.herald.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.facebook.FacebookAdapter;
import io.herald.adapters.port.ChannelAdapters;
import io.herald.sandbox.FacebookSandboxController;
import io.herald.sandbox.SandboxDemo;
import io.herald.sandbox.SandboxState;
import io.herald.contracts.channel.ChannelType;
import java.time.Duration;
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
                        "herald.channels.wordpress.read-timeout=45s")
                .run(context -> {
                    ChannelAdaptersProperties properties = context.getBean(ChannelAdaptersProperties.class);
                    assertThat(properties.facebook().graphBaseUrl()).isEqualTo("http://127.0.0.1:9/v25.0");
                    assertThat(properties.facebook().connectTimeout()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(properties.facebook().readTimeout()).isEqualTo(Duration.ofSeconds(15));
                    assertThat(properties.linkedin().version()).isEqualTo("202612");
                    assertThat(properties.linkedin().apiBaseUrl()).isEqualTo("https://api.linkedin.com");
                    assertThat(properties.wordpress().readTimeout()).isEqualTo(Duration.ofSeconds(45));
                    ChannelAdapters adapters = context.getBean(ChannelAdapters.class);
                    assertThat(adapters.forType(ChannelType.FACEBOOK)).isInstanceOf(FacebookAdapter.class);
                    assertThat(adapters.forType(ChannelType.LINKEDIN).type()).isEqualTo(ChannelType.LINKEDIN);
                    assertThat(adapters.forType(ChannelType.WORDPRESS).type()).isEqualTo(ChannelType.WORDPRESS);
                    assertThat(context).doesNotHaveBean(SandboxState.class);
                    assertThat(context).doesNotHaveBean(FacebookSandboxController.class);
                });
    }

    @Test
    void defaultsMatchTheDesign() {
        ChannelAdaptersProperties defaults = ChannelAdaptersProperties.defaults();
        assertThat(defaults.facebook().graphBaseUrl()).isEqualTo("https://graph.facebook.com/v25.0");
        assertThat(defaults.linkedin().apiBaseUrl()).isEqualTo("https://api.linkedin.com");
    }

    @Test
    void sandboxIsRegisteredOnlyWhenEnabled() {
        runner.withPropertyValues("herald.sandbox.enabled=true").run(context -> {
            assertThat(context).hasSingleBean(SandboxState.class);
            assertThat(context).hasSingleBean(FacebookSandboxController.class);
            SandboxDemo demo = context.getBean(SandboxDemo.class);
            var connections = demo.register("http://localhost:8080/");
            assertThat(connections).extracting(SandboxDemo.DemoConnection::channelId).containsExactly(
                    "fb-demo", "fb-demo-user-token-reader", "li-demo", "li-demo-write-only", "wp-demo",
                    "wp-demo-without-plugin");
            assertThat(connections.get(4).settings().siteUrl()).isEqualTo("http://localhost:8080/sandbox/wordpress/blog");
            SandboxState state = context.getBean(SandboxState.class);
            assertThat(state.facebookToken("demo-fb-user-token")).get()
                    .extracting(SandboxState.FacebookToken::kind).isEqualTo(SandboxState.FacebookTokenKind.USER);
            assertThat(state.wordPressSite("stock-blog")).get().extracting(SandboxState.WordPressSite::plugin)
                    .isEqualTo(false);
        });
    }
}
