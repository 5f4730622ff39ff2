package io.herald.adapters;

import com.fasterxml.jackson.databind.Module;
import io.herald.adapters.bluesky.BlueskyAdapter;
import io.herald.adapters.bluesky.BlueskyPlugin;
import io.herald.adapters.facebook.FacebookAdapter;
import io.herald.adapters.facebook.FacebookPlugin;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.linkedin.LinkedInAdapter;
import io.herald.adapters.linkedin.LinkedInPlugin;
import io.herald.adapters.mastodon.MastodonAdapter;
import io.herald.adapters.mastodon.MastodonPlugin;
import io.herald.adapters.outbound.HostResolver;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.outbound.OutboundProperties;
import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ConnectFlow;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.adapters.wordpress.WordPressAdapter;
import io.herald.adapters.wordpress.WordPressPlugin;
import java.time.Clock;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The channel plug-ins and their {@link ChannelPlugins} registry, one HTTP client per provider.
 * Registering a channel is one line in {@link #create}. Uses the application's {@link Clock} bean
 * when there is exactly one, else the system clock (UTC).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ChannelAdaptersProperties.class, OutboundProperties.class})
public class ChannelAdaptersConfiguration {

    /** Every channel plug-in Herald has; also builds them without Spring, e.g. in tests. */
    public static ChannelPlugins create(ChannelAdaptersProperties properties, OutboundGuard guard, Clock clock) {
        return new ChannelPlugins(List.<ChannelPlugin>of(
                new FacebookPlugin(facebook(properties, clock), facebookLogin(properties, clock)),
                new LinkedInPlugin(linkedIn(properties, clock), linkedInLogin(properties, clock)),
                new WordPressPlugin(wordPress(properties, guard, clock)),
                new BlueskyPlugin(bluesky(properties, guard, clock)),
                new MastodonPlugin(mastodon(properties, guard, clock), properties.mastodon().idempotencyWindow(),
                        MastodonPlugin.login(mastodonHttp(properties, guard, clock)))));
    }

    public static FacebookAdapter facebook(ChannelAdaptersProperties properties, Clock clock) {
        ChannelAdaptersProperties.Facebook fb = properties.facebook();
        return new FacebookAdapter(new ProviderHttp("facebook", fb.connectTimeout(), fb.readTimeout(), clock),
                fb.graphBaseUrl());
    }

    public static ConnectFlow facebookLogin(ChannelAdaptersProperties properties, Clock clock) {
        ChannelAdaptersProperties.Facebook fb = properties.facebook();
        return FacebookPlugin.login(new ProviderHttp("facebook", fb.connectTimeout(), fb.readTimeout(), clock),
                fb.dialogBaseUrl(), fb.graphBaseUrl(), fb.appId(), fb.appSecret());
    }

    public static ConnectFlow linkedInLogin(ChannelAdaptersProperties properties, Clock clock) {
        ChannelAdaptersProperties.LinkedIn li = properties.linkedin();
        return LinkedInPlugin.login(new ProviderHttp("linkedin", li.connectTimeout(), li.readTimeout(), clock),
                li.authorizationBaseUrl(), li.apiBaseUrl(), li.version(), li.clientId(), li.clientSecret(),
                li.oauthScopes());
    }

    public static LinkedInAdapter linkedIn(ChannelAdaptersProperties properties, Clock clock) {
        ChannelAdaptersProperties.LinkedIn li = properties.linkedin();
        return new LinkedInAdapter(new ProviderHttp("linkedin", li.connectTimeout(), li.readTimeout(), clock),
                li.apiBaseUrl(), li.version());
    }

    /** WordPress sites are typed in by workspace admins: every call goes through the outbound guard. */
    public static WordPressAdapter wordPress(ChannelAdaptersProperties properties, OutboundGuard guard, Clock clock) {
        ChannelAdaptersProperties.WordPress wp = properties.wordpress();
        return new WordPressAdapter(ProviderHttp.guarded("wordpress", wp.connectTimeout(), wp.readTimeout(), clock,
                guard));
    }

    /** A Bluesky account's PDS may be one a workspace admin names: every call goes through the outbound guard. */
    public static BlueskyAdapter bluesky(ChannelAdaptersProperties properties, OutboundGuard guard, Clock clock) {
        ChannelAdaptersProperties.Bluesky bs = properties.bluesky();
        return new BlueskyAdapter(ProviderHttp.guarded("bluesky", bs.connectTimeout(), bs.readTimeout(), clock,
                guard));
    }

    /** A Mastodon instance is one a workspace admin names: every call goes through the outbound guard. */
    public static MastodonAdapter mastodon(ChannelAdaptersProperties properties, OutboundGuard guard, Clock clock) {
        return new MastodonAdapter(mastodonHttp(properties, guard, clock));
    }

    private static ProviderHttp mastodonHttp(ChannelAdaptersProperties properties, OutboundGuard guard, Clock clock) {
        ChannelAdaptersProperties.Mastodon md = properties.mastodon();
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
    ChannelPlugins channelPlugins(ChannelAdaptersProperties properties, OutboundGuard guard,
                                  ObjectProvider<Clock> clock) {
        return create(properties, guard, clock.getIfUnique(Clock::systemUTC));
    }

    /** Tells every mapper Spring builds which settings record a channel type's tag names. */
    @Bean
    Module channelSettingsTypes(ChannelPlugins plugins) {
        return plugins.jacksonModule();
    }
}
