package io.herald.sandbox;

import io.herald.sandbox.bluesky.BlueskyRepos;
import io.herald.sandbox.mastodon.MastodonInstance;
import io.herald.sandbox.threads.ThreadsAccounts;
import io.herald.sandbox.instagram.InstagramAccounts;
import java.util.List;
import java.util.Map;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * Demo channel connections for the embedded run: registers their tokens and sites in the sandbox
 * and returns their definitions, one per capability case an operator should see.
 * Facebook and LinkedIn reach the sandbox through {@code herald.channels.facebook.graph-base-url}
 * = {@code {base}/sandbox/facebook/v25.0} and {@code herald.channels.linkedin.api-base-url} =
 * {@code {base}/sandbox/linkedin}; WordPress, Bluesky and Mastodon through each connection's site, PDS or instance URL;
 * Instagram through {@code herald.channels.instagram.graph-base-url} = {@code {base}/sandbox/instagram/v23.0};
 * Threads through {@code herald.channels.threads.base-url} = {@code {base}/sandbox/threads/v1.0}.
 */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
public class SandboxDemo {

    /**
     * One demo connection: the fields of the {@code PUT} an admin would send, secrets included (the
     * sandbox knows no Herald module but the contracts, so it speaks the API's own shape).
     */
    public record DemoConnection(String channelId, Map<String, Object> fields) {

        public String type() {
            return (String) fields.get("type");
        }
    }

    /**
     * A demo connection an admin would make with the provider's "Connect" button: its connect
     * request's body ({@code type} and any fields of its own) and the choice to make when the
     * provider's grant allows several (the Page), null when there is one.
     */
    public record ProviderConnect(String channelId, Map<String, Object> start, String choice) {
    }

    public static final String FACEBOOK_PAGE = "100200300400500";
    public static final String LINKEDIN_MEMBER = "urn:li:person:demo-reader";
    public static final String LINKEDIN_MEMBER_WRITE_ONLY = "urn:li:person:demo-writer";

    public static final String BLUESKY_HANDLE = "demo.bsky.test";
    public static final String BLUESKY_APP_PASSWORD = "demo-abcd-efgh-ijkl";

    public static final String MASTODON_USERNAME = "demo";
    public static final String MASTODON_TOKEN = "demo-masto-access-token";

    public static final String INSTAGRAM_USER_ID = "17841400000000001";
    public static final String INSTAGRAM_USERNAME = "demo.gram";
    public static final String INSTAGRAM_TOKEN = "demo-ig-access-token";

    public static final String THREADS_USER_ID = "25000000000000001";
    public static final String THREADS_USERNAME = "demo.threads";
    public static final String THREADS_TOKEN = "demo-threads-access-token";

    private final SandboxState state;
    private final BlueskyRepos bluesky;
    private final MastodonInstance mastodon;
    private final InstagramAccounts instagram;
    private final ThreadsAccounts threads;

    public SandboxDemo(SandboxState state, BlueskyRepos bluesky, MastodonInstance mastodon,
                       InstagramAccounts instagram, ThreadsAccounts threads) {
        this.state = state;
        this.bluesky = bluesky;
        this.mastodon = mastodon;
        this.instagram = instagram;
        this.threads = threads;
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
        bluesky.register(BLUESKY_HANDLE, BLUESKY_APP_PASSWORD);
        mastodon.register(MASTODON_USERNAME, MASTODON_TOKEN, null);
        instagram.register(INSTAGRAM_USER_ID, INSTAGRAM_USERNAME, INSTAGRAM_TOKEN, null, null);
        threads.register(THREADS_USERNAME, THREADS_TOKEN, THREADS_USER_ID);
        return definitions(base);
    }

    /**
     * The demo connections made through the provider's OAuth consent — which the sandbox approves at
     * once, for the demo's Page, member, Instagram account and Threads profile — rather than with the {@code PUT} of their
     * {@link #definitions} (which stay what they would store, for the truth and for tests).
     * {@code masto-demo} is not among them: the sandbox's instance signs in a new account on every
     * grant, while the demo's account and its statuses are known by its fixed token.
     */
    public static List<ProviderConnect> throughProviders() {
        return List.of(new ProviderConnect("fb-demo", Map.of("type", "facebook"), FACEBOOK_PAGE),
                new ProviderConnect("li-demo", Map.of("type", "linkedin"), null),
                new ProviderConnect("ig-demo", Map.of("type", "instagram"), null),
                new ProviderConnect("threads-demo", Map.of("type", "threads"), null));
    }

    /** The demo connections for a sandbox at {@code base}, without registering anything. */
    public static List<DemoConnection> definitions(String base) {
        return List.of(
                new DemoConnection("fb-demo",
                        Map.of("type", "facebook", "pageId", FACEBOOK_PAGE, "pageAccessToken", "demo-fb-page-token")),
                new DemoConnection("fb-demo-user-token-reader",
                        Map.of("type", "facebook", "pageId", FACEBOOK_PAGE, "pageAccessToken", "demo-fb-page-token",
                                "readAccessToken", "demo-fb-user-token")),
                new DemoConnection("li-demo",
                        Map.of("type", "linkedin", "authorUrn", LINKEDIN_MEMBER, "accessToken", "demo-li-reader-token",
                                "scopes", List.of("w_member_social", "r_member_social"))),
                new DemoConnection("li-demo-write-only",
                        Map.of("type", "linkedin", "authorUrn", LINKEDIN_MEMBER_WRITE_ONLY,
                                "accessToken", "demo-li-writer-token", "scopes", List.of("w_member_social"))),
                new DemoConnection("wp-demo",
                        Map.of("type", "wordpress", "siteUrl", base + "/sandbox/wordpress/blog", "username", "editor",
                                "applicationPassword", "demo abcd efgh ijkl")),
                new DemoConnection("wp-demo-without-plugin",
                        Map.of("type", "wordpress", "siteUrl", base + "/sandbox/wordpress/stock-blog",
                                "username", "editor", "applicationPassword", "demo mnop qrst uvwx")),
                new DemoConnection("bsky-demo",
                        Map.of("type", "bluesky", "handle", BLUESKY_HANDLE, "appPassword", BLUESKY_APP_PASSWORD,
                                "pdsUrl", base + "/sandbox/bluesky")),
                new DemoConnection("masto-demo",
                        Map.of("type", "mastodon", "instanceUrl", base + "/sandbox/mastodon",
                                "accessToken", MASTODON_TOKEN)),
                new DemoConnection("ig-demo",
                        Map.of("type", "instagram", "igUserId", INSTAGRAM_USER_ID, "accessToken", INSTAGRAM_TOKEN)),
                new DemoConnection("threads-demo",
                        Map.of("type", "threads", "threadsUserId", THREADS_USER_ID, "accessToken", THREADS_TOKEN)));
    }
}
