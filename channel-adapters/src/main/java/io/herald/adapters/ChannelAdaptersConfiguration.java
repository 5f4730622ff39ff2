package io.herald.adapters;

import com.fasterxml.jackson.databind.Module;
import io.herald.adapters.bluesky.BlueskyAdapter;
import io.herald.adapters.bluesky.BlueskyPlugin;
import io.herald.adapters.bluesky.BlueskyProperties;
import io.herald.adapters.facebook.FacebookAdapter;
import io.herald.adapters.facebook.FacebookPlugin;
import io.herald.adapters.facebook.FacebookProperties;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.instagram.InstagramAdapter;
import io.herald.adapters.instagram.InstagramPlugin;
import io.herald.adapters.instagram.InstagramProperties;
import io.herald.adapters.linkedin.LinkedInAdapter;
import io.herald.adapters.linkedin.LinkedInPlugin;
import io.herald.adapters.linkedin.LinkedInProperties;
import io.herald.adapters.mastodon.MastodonAdapter;
import io.herald.adapters.mastodon.MastodonPlugin;
import io.herald.adapters.mastodon.MastodonProperties;
import io.herald.adapters.outbound.HostResolver;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.outbound.OutboundProperties;
import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ConnectFlow;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.adapters.port.UsageReports;
import io.herald.adapters.port.PublicMediaLinks;
import io.herald.adapters.threads.ThreadsAdapter;
import io.herald.adapters.threads.ThreadsPlugin;
import io.herald.adapters.threads.ThreadsProperties;
import io.herald.adapters.wordpress.WordPressAdapter;
import io.herald.adapters.wordpress.WordPressPlugin;
import io.herald.adapters.wordpress.WordPressProperties;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The channel plug-ins and their {@link ChannelPlugins} registry, one HTTP client per provider.
 * Registering a channel is one line in {@link #create}, which also binds the plug-in's properties
 * record. Uses the application's {@link Clock} bean when there is exactly one, else the system
 * clock (UTC).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(OutboundProperties.class)
public class ChannelAdaptersConfiguration {

    /** Every channel plug-in Herald has, without a public address for media; e.g. in tests. */
    public static ChannelPlugins create(PluginProperties properties, OutboundGuard guard, Clock clock) {
        return create(properties, guard, clock, () -> null);
    }

    /**
     * Every channel plug-in Herald has; {@code links} gives Herald's public media addresses (null:
     * none), which channels whose provider fetches the images need.
     */
    public static ChannelPlugins create(PluginProperties properties, OutboundGuard guard, Clock clock,
                                        Supplier<PublicMediaLinks> links) {
        FacebookProperties facebook = properties.bind(FacebookProperties.class);
        LinkedInProperties linkedIn = properties.bind(LinkedInProperties.class);
        MastodonProperties mastodon = properties.bind(MastodonProperties.class);
        // the adapters that read usage headers report them here; the command side keeps them in the budget
        UsageReports usage = new UsageReports();
        ThreadsProperties threads = properties.bind(ThreadsProperties.class);
        InstagramProperties instagram = properties.bind(InstagramProperties.class);
        return new ChannelPlugins(List.<ChannelPlugin>of(
                new FacebookPlugin(facebook(facebook, clock, usage), facebookLogin(facebook, clock),
                        facebook.budget()),
                new LinkedInPlugin(linkedIn(linkedIn, clock), linkedInLogin(linkedIn, clock)),
                new WordPressPlugin(wordPress(properties.bind(WordPressProperties.class), guard, clock)),
                new BlueskyPlugin(bluesky(properties.bind(BlueskyProperties.class), guard, clock, usage)),
                new MastodonPlugin(mastodon(mastodon, guard, clock, usage), mastodon.idempotencyWindow(),
                        MastodonPlugin.login(mastodonHttp(mastodon, guard, clock))),
                new InstagramPlugin(instagram(instagram, clock), links, instagramLogin(instagram, clock)),
                new ThreadsPlugin(threads(threads, clock), links, threads.quotaCalls(), threads.quotaWindow(),
                        threadsLogin(threads, clock))),
                usage);
    }

    public static ThreadsAdapter threads(ThreadsProperties th, Clock clock) {
        return new ThreadsAdapter(new ProviderHttp("threads", th.connectTimeout(), th.readTimeout(), clock),
                th.baseUrl(), th.containerWait(), th.containerPollInterval());
    }

    public static ConnectFlow threadsLogin(ThreadsProperties th, Clock clock) {
        return ThreadsPlugin.login(new ProviderHttp("threads", th.connectTimeout(), th.readTimeout(), clock),
                th.authorizeBaseUrl(), th.baseUrl(), th.appId(), th.appSecret());
    }

    public static ConnectFlow instagramLogin(InstagramProperties ig, Clock clock) {
        return InstagramPlugin.login(new ProviderHttp("instagram", ig.connectTimeout(), ig.readTimeout(), clock),
                ig.authorizeBaseUrl(), ig.tokenBaseUrl(), ig.graphBaseUrl(), ig.appId(), ig.appSecret());
    }

    public static InstagramAdapter instagram(InstagramProperties ig, Clock clock) {
        return new InstagramAdapter(new ProviderHttp("instagram", ig.connectTimeout(), ig.readTimeout(), clock),
                ig.graphBaseUrl(), ig.containerPollInterval());
    }

    public static FacebookAdapter facebook(FacebookProperties fb, Clock clock) {
        return facebook(fb, clock, new UsageReports());
    }

    private static FacebookAdapter facebook(FacebookProperties fb, Clock clock, UsageReports usage) {
        return new FacebookAdapter(new ProviderHttp("facebook", fb.connectTimeout(), fb.readTimeout(), clock)
                .reportingUsageTo(usage), fb.graphBaseUrl());
    }

    public static ConnectFlow facebookLogin(FacebookProperties fb, Clock clock) {
        return FacebookPlugin.login(new ProviderHttp("facebook", fb.connectTimeout(), fb.readTimeout(), clock),
                fb.dialogBaseUrl(), fb.graphBaseUrl(), fb.appId(), fb.appSecret());
    }

    public static ConnectFlow linkedInLogin(LinkedInProperties li, Clock clock) {
        return LinkedInPlugin.login(new ProviderHttp("linkedin", li.connectTimeout(), li.readTimeout(), clock),
                li.authorizationBaseUrl(), li.apiBaseUrl(), li.version(), li.clientId(), li.clientSecret(),
                li.oauthScopes());
    }

    public static LinkedInAdapter linkedIn(LinkedInProperties li, Clock clock) {
        return new LinkedInAdapter(new ProviderHttp("linkedin", li.connectTimeout(), li.readTimeout(), clock),
                li.apiBaseUrl(), li.version());
    }

    /** WordPress sites are typed in by workspace admins: every call goes through the outbound guard. */
    public static WordPressAdapter wordPress(WordPressProperties wp, OutboundGuard guard, Clock clock) {
        return new WordPressAdapter(ProviderHttp.guarded("wordpress", wp.connectTimeout(), wp.readTimeout(), clock,
                guard));
    }

    /** A Bluesky account's PDS may be one a workspace admin names: every call goes through the outbound guard. */
    public static BlueskyAdapter bluesky(BlueskyProperties bs, OutboundGuard guard, Clock clock) {
        return bluesky(bs, guard, clock, new UsageReports());
    }

    private static BlueskyAdapter bluesky(BlueskyProperties bs, OutboundGuard guard, Clock clock, UsageReports usage) {
        return new BlueskyAdapter(ProviderHttp.guarded("bluesky", bs.connectTimeout(), bs.readTimeout(), clock,
                guard).reportingUsageTo(usage));
    }

    /** A Mastodon instance is one a workspace admin names: every call goes through the outbound guard. */
    public static MastodonAdapter mastodon(MastodonProperties md, OutboundGuard guard, Clock clock) {
        return mastodon(md, guard, clock, new UsageReports());
    }

    private static MastodonAdapter mastodon(MastodonProperties md, OutboundGuard guard, Clock clock,
                                            UsageReports usage) {
        return new MastodonAdapter(mastodonHttp(md, guard, clock).reportingUsageTo(usage), md.mediaProcessingWait());
    }

    private static ProviderHttp mastodonHttp(MastodonProperties md, OutboundGuard guard, Clock clock) {
        return ProviderHttp.guarded("mastodon", md.connectTimeout(), md.readTimeout(), clock, guard);
    }

    /** The system resolver; a test may replace this bean to control what names resolve to. */
    @Bean
    HostResolver hostResolver() {
        return HostResolver.SYSTEM;
    }

    @Bean
    OutboundGuard outboundGuard(OutboundProperties properties, HostResolver hostResolver) {
        return new OutboundGuard(properties, hostResolver);
    }

    @Bean
    ChannelPlugins channelPlugins(Environment environment, OutboundGuard guard, ObjectProvider<Clock> clock,
                                  ObjectProvider<PublicMediaLinks> links) {
        return create(PluginProperties.of(environment), guard, clock.getIfUnique(Clock::systemUTC),
                links::getIfAvailable);
    }

    /** Tells every mapper Spring builds which settings record a channel type's tag names. */
    @Bean
    Module channelSettingsTypes(ChannelPlugins plugins) {
        return plugins.jacksonModule();
    }
}
