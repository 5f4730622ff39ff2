package io.herald.adapters;

import io.herald.adapters.bluesky.BlueskyAdapter;
import io.herald.adapters.bluesky.BlueskyProperties;
import io.herald.adapters.wordpress.WordPressPlugin;
import io.herald.adapters.linkedin.LinkedInPlugin;
import io.herald.adapters.facebook.FacebookPlugin;
import io.herald.adapters.wordpress.WordPressSecrets;
import io.herald.adapters.wordpress.WordPressSettings;
import io.herald.adapters.linkedin.LinkedInSecrets;
import io.herald.adapters.linkedin.LinkedInSettings;
import io.herald.adapters.facebook.FacebookSecrets;
import io.herald.adapters.facebook.FacebookSettings;
import io.herald.adapters.facebook.FacebookAdapter;
import io.herald.adapters.facebook.FacebookProperties;
import io.herald.adapters.linkedin.LinkedInAdapter;
import io.herald.adapters.mastodon.MastodonAdapter;
import io.herald.adapters.mastodon.MastodonProperties;
import io.herald.adapters.linkedin.LinkedInProperties;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PublishRequest;
import io.herald.adapters.port.ReadBackRequest;
import io.herald.sandbox.SandboxClient;
import io.herald.sandbox.SandboxServer;
import io.herald.adapters.wordpress.WordPressAdapter;
import io.herald.adapters.wordpress.WordPressProperties;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Shared set-up for tests that drive adapters against the sandbox over real HTTP. */
public abstract class SandboxTestSupport {

    /**
     * Long enough for a normal answer on a busy machine; the delaying faults wait far longer
     * (15 s), so a read timeout is certain without any timing being asserted.
     */
    protected static final Duration SHORT_READ_TIMEOUT = Duration.ofSeconds(3);

    protected final SandboxServer server = SandboxServer.shared();
    protected final SandboxClient sandbox = server.client();
    protected final Clock clock = Clock.systemUTC();

    protected FacebookAdapter facebook(Duration readTimeout) {
        return ChannelAdaptersConfiguration.facebook(
                new FacebookProperties(sandbox.facebookGraphUrl(), "https://www.facebook.com/v25.0", null, null,
                        Duration.ofSeconds(2), readTimeout, 200, Duration.ofHours(1)), clock);
    }

    protected LinkedInAdapter linkedIn(Duration readTimeout) {
        return ChannelAdaptersConfiguration.linkedIn(
                new LinkedInProperties(sandbox.linkedInApiUrl(), "202611", "https://www.linkedin.com/oauth/v2", null,
                        null, "openid,profile,w_member_social", Duration.ofSeconds(2), readTimeout), clock);
    }

    protected WordPressAdapter wordPress(Duration readTimeout) {
        // the sandbox listens on 127.0.0.1
        return ChannelAdaptersConfiguration.wordPress(new WordPressProperties(Duration.ofSeconds(2), readTimeout),
                OutboundGuard.privateNetworksAllowed(), clock);
    }

    protected BlueskyAdapter bluesky(Duration readTimeout) {
        // the sandbox and the reference PDS listen on 127.0.0.1
        return ChannelAdaptersConfiguration.bluesky(new BlueskyProperties(Duration.ofSeconds(2), readTimeout),
                OutboundGuard.privateNetworksAllowed(), clock);
    }

    protected MastodonAdapter mastodon(Duration readTimeout) {
        return mastodon(readTimeout, Duration.ofSeconds(30));
    }

    protected MastodonAdapter mastodon(Duration readTimeout, Duration mediaProcessingWait) {
        // the sandbox listens on 127.0.0.1
        return ChannelAdaptersConfiguration.mastodon(
                new MastodonProperties(Duration.ofSeconds(2), readTimeout, Duration.ofMinutes(50), mediaProcessingWait),
                OutboundGuard.privateNetworksAllowed(), clock);
    }

    protected static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    protected static String numericId() {
        return Long.toString(100_000_000_000L + (long) (Math.random() * 800_000_000_000L));
    }

    protected static ChannelConnection facebookConnection(String pageId, String pageToken, String readToken) {
        return new ChannelConnection(new WorkspaceId("acme"), new ChannelId("fb-" + pageId), FacebookPlugin.TYPE,
                new FacebookSettings(pageId, readToken != null),
                new FacebookSecrets(pageToken, readToken), false);
    }

    protected static ChannelConnection linkedInConnection(String author, String token, List<String> scopes) {
        return new ChannelConnection(new WorkspaceId("acme"), new ChannelId("li-main"), LinkedInPlugin.TYPE,
                new LinkedInSettings(author, scopes),
                new LinkedInSecrets(token), false);
    }

    protected static ChannelConnection wordPressConnection(String siteUrl, String username, String password) {
        return new ChannelConnection(new WorkspaceId("acme"), new ChannelId("wp-main"), WordPressPlugin.TYPE,
                new WordPressSettings(siteUrl, username),
                new WordPressSecrets(password), false);
    }

    protected static PublicationId publicationId(String entry) {
        return IdempotencyKeys.publicationId(new WorkspaceId("acme"), entry, 1, new ChannelId("any"),
                PublicationAction.PUBLISH);
    }

    protected static PublishRequest publish(ChannelConnection connection, Content content) {
        return new PublishRequest(publicationId(UUID.randomUUID().toString()), 1, PublicationAction.PUBLISH, content,
                null, connection);
    }

    protected static ReadBackRequest readBack(PublishRequest request, Instant attemptStartedAt) {
        return new ReadBackRequest(request.publicationId(), request.attemptNo(), request.action(), request.content(),
                attemptStartedAt, request.connection());
    }

    protected static <T> T result(CompletableFuture<T> future) {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("the adapter's future did not complete normally", e);
        }
    }
}
