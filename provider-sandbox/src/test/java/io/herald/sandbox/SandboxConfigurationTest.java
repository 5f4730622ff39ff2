package io.herald.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.sandbox.facebook.FacebookSandboxController;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.ComponentScan;

class SandboxConfigurationTest {

    /** Not a {@code @Configuration}, so that no scan of {@code io.herald.sandbox} picks it up. */
    @ComponentScan("io.herald.sandbox")
    static class ScanLikeTheApplication {
    }

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withUserConfiguration(ScanLikeTheApplication.class);

    @Test
    void sandboxIsAbsentUnlessEnabled() {
        runner.run(context -> {
            assertThat(context).doesNotHaveBean(SandboxState.class);
            assertThat(context).doesNotHaveBean(FacebookSandboxController.class);
            assertThat(context).doesNotHaveBean(SandboxDemo.class);
        });
    }

    @Test
    void sandboxIsRegisteredWhenEnabled() {
        runner.withPropertyValues("herald.sandbox.enabled=true").run(context -> {
            assertThat(context).hasSingleBean(SandboxState.class);
            assertThat(context).hasSingleBean(FacebookSandboxController.class);
            SandboxDemo demo = context.getBean(SandboxDemo.class);
            var connections = demo.register("http://localhost:8080/");
            assertThat(connections).extracting(SandboxDemo.DemoConnection::channelId).containsExactly(
                    "fb-demo", "fb-demo-user-token-reader", "li-demo", "li-demo-write-only", "wp-demo",
                    "wp-demo-without-plugin", "bsky-demo", "masto-demo", "ig-demo", "threads-demo");
            assertThat(connections.get(6).fields().get("pdsUrl")).isEqualTo("http://localhost:8080/sandbox/bluesky");
            assertThat(connections.get(7).fields().get("instanceUrl")).isEqualTo("http://localhost:8080/sandbox/mastodon");
            assertThat(connections.get(4).fields().get("siteUrl")).isEqualTo("http://localhost:8080/sandbox/wordpress/blog");
            SandboxState state = context.getBean(SandboxState.class);
            assertThat(state.facebookToken("demo-fb-user-token")).get()
                    .extracting(SandboxState.FacebookToken::kind).isEqualTo(SandboxState.FacebookTokenKind.USER);
            assertThat(context.getBeansOfType(SandboxChannel.class).values())
                    .as("every demo connection's sandbox says which posts it holds")
                    .extracting(SandboxChannel::type)
                    .containsAll(connections.stream().map(SandboxDemo.DemoConnection::type).distinct().toList());
            assertThat(state.wordPressSite("stock-blog")).get().extracting(SandboxState.WordPressSite::plugin)
                    .isEqualTo(false);
        });
    }
}
