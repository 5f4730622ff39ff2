package io.herald.adapters;

import io.herald.adapters.facebook.FacebookAdapter;
import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.linkedin.LinkedInAdapter;
import io.herald.adapters.outbound.HostResolver;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.outbound.OutboundProperties;
import io.herald.adapters.port.ChannelAdapter;
import io.herald.adapters.port.ChannelAdapters;
import io.herald.adapters.wordpress.WordPressAdapter;
import java.time.Clock;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The three adapters and the {@link ChannelAdapters} registry, one HTTP client per provider.
 * Uses the application's {@link Clock} bean when there is exactly one, else the system clock (UTC).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ChannelAdaptersProperties.class, OutboundProperties.class})
public class ChannelAdaptersConfiguration {

    /** Builds the adapters without Spring, e.g. in tests. */
    public static ChannelAdapters create(ChannelAdaptersProperties properties, OutboundGuard guard, Clock clock) {
        return new ChannelAdapters(List.of(facebook(properties, clock), linkedIn(properties, clock),
                wordPress(properties, guard, clock)));
    }

    public static FacebookAdapter facebook(ChannelAdaptersProperties properties, Clock clock) {
        ChannelAdaptersProperties.Facebook fb = properties.facebook();
        return new FacebookAdapter(new ProviderHttp("facebook", fb.connectTimeout(), fb.readTimeout(), clock),
                fb.graphBaseUrl());
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
    FacebookAdapter facebookAdapter(ChannelAdaptersProperties properties, ObjectProvider<Clock> clock) {
        return facebook(properties, clock.getIfUnique(Clock::systemUTC));
    }

    @Bean
    LinkedInAdapter linkedInAdapter(ChannelAdaptersProperties properties, ObjectProvider<Clock> clock) {
        return linkedIn(properties, clock.getIfUnique(Clock::systemUTC));
    }

    @Bean
    WordPressAdapter wordPressAdapter(ChannelAdaptersProperties properties, OutboundGuard guard,
                                      ObjectProvider<Clock> clock) {
        return wordPress(properties, guard, clock.getIfUnique(Clock::systemUTC));
    }

    @Bean
    ChannelAdapters channelAdapters(List<ChannelAdapter> adapters) {
        return new ChannelAdapters(adapters);
    }
}
