package io.herald.sandbox;

import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelType;
import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * Demo channel connections for the embedded run: registers their tokens and sites in the sandbox
 * and returns their definitions, one per capability case an operator should see.
 * Facebook and LinkedIn reach the sandbox through {@code herald.channels.facebook.graph-base-url}
 * = {@code {base}/sandbox/facebook/v25.0} and {@code herald.channels.linkedin.api-base-url} =
 * {@code {base}/sandbox/linkedin}; WordPress through each connection's site URL.
 */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class SandboxDemo {

    /** One demo connection: what an admin would PUT, secrets included. */
    public record DemoConnection(ChannelType type, String channelId, ChannelSettings settings, DemoSecrets secrets) {
    }

    /** The secrets an admin would send with a connection; the sandbox knows no Herald module but the contracts. */
    public record DemoSecrets(String pageAccessToken, String readAccessToken, String accessToken,
                              String applicationPassword) {
    }

    public static final String FACEBOOK_PAGE = "100200300400500";
    public static final String LINKEDIN_MEMBER = "urn:li:person:demo-reader";
    public static final String LINKEDIN_MEMBER_WRITE_ONLY = "urn:li:person:demo-writer";

    private final SandboxState state;

    public SandboxDemo(SandboxState state) {
        this.state = state;
    }

    /** Registers the demo credentials in the sandbox and returns the connections that use them. */
    public List<DemoConnection> register(String sandboxBaseUrl) {
        String base = sandboxBaseUrl.endsWith("/") ? sandboxBaseUrl.substring(0, sandboxBaseUrl.length() - 1)
                : sandboxBaseUrl;
        state.register(new SandboxState.FacebookToken("demo-fb-page-token", FACEBOOK_PAGE,
                SandboxState.FacebookTokenKind.PAGE));
        state.register(new SandboxState.FacebookToken("demo-fb-user-token", FACEBOOK_PAGE,
                SandboxState.FacebookTokenKind.USER));
        state.register(new SandboxState.LinkedInToken("demo-li-reader-token", LINKEDIN_MEMBER,
                java.util.Set.of("w_member_social", "r_member_social")));
        state.register(new SandboxState.LinkedInToken("demo-li-writer-token", LINKEDIN_MEMBER_WRITE_ONLY,
                java.util.Set.of("w_member_social")));
        state.register(new SandboxState.WordPressSite("blog", "editor", "demo abcd efgh ijkl", true));
        state.register(new SandboxState.WordPressSite("stock-blog", "editor", "demo mnop qrst uvwx", false));
        return definitions(base);
    }

    /** The demo connections for a sandbox at {@code base}, without registering anything. */
    public static List<DemoConnection> definitions(String base) {
        return List.of(
                new DemoConnection(ChannelType.FACEBOOK, "fb-demo",
                        new ChannelSettings(FACEBOOK_PAGE, null, null, null, null, false),
                        new DemoSecrets("demo-fb-page-token", null, null, null)),
                new DemoConnection(ChannelType.FACEBOOK, "fb-demo-user-token-reader",
                        new ChannelSettings(FACEBOOK_PAGE, null, null, null, null, true),
                        new DemoSecrets("demo-fb-page-token", "demo-fb-user-token", null, null)),
                new DemoConnection(ChannelType.LINKEDIN, "li-demo",
                        new ChannelSettings(null, LINKEDIN_MEMBER, List.of("w_member_social", "r_member_social"),
                                null, null, false),
                        new DemoSecrets(null, null, "demo-li-reader-token", null)),
                new DemoConnection(ChannelType.LINKEDIN, "li-demo-write-only",
                        new ChannelSettings(null, LINKEDIN_MEMBER_WRITE_ONLY, List.of("w_member_social"), null, null,
                                false),
                        new DemoSecrets(null, null, "demo-li-writer-token", null)),
                new DemoConnection(ChannelType.WORDPRESS, "wp-demo",
                        new ChannelSettings(null, null, null, base + "/sandbox/wordpress/blog", "editor", false),
                        new DemoSecrets(null, null, null, "demo abcd efgh ijkl")),
                new DemoConnection(ChannelType.WORDPRESS, "wp-demo-without-plugin",
                        new ChannelSettings(null, null, null, base + "/sandbox/wordpress/stock-blog", "editor", false),
                        new DemoSecrets(null, null, null, "demo mnop qrst uvwx")));
    }
}
