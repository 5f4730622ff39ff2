package io.herald.adapters;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code herald.channels.*}: where each provider lives and how long to wait for it. The connect
 * timeout bounds "could not reach the provider" (safe to retry); the read timeout bounds the wait
 * for an answer to a request that left (outcome unknown when it passes).
 */
@ConfigurationProperties("herald.channels")
public record ChannelAdaptersProperties(Facebook facebook, LinkedIn linkedin, WordPress wordpress) {

    static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);

    public ChannelAdaptersProperties {
        facebook = facebook != null ? facebook : new Facebook(null, null, null);
        linkedin = linkedin != null ? linkedin : new LinkedIn(null, null, null, null);
        wordpress = wordpress != null ? wordpress : new WordPress(null, null);
    }

    public static ChannelAdaptersProperties defaults() {
        return new ChannelAdaptersProperties(null, null, null);
    }

    public record Facebook(String graphBaseUrl, Duration connectTimeout, Duration readTimeout) {
        public Facebook {
            graphBaseUrl = graphBaseUrl != null ? graphBaseUrl : "https://graph.facebook.com/v25.0";
            connectTimeout = connectTimeout != null ? connectTimeout : DEFAULT_CONNECT_TIMEOUT;
            readTimeout = readTimeout != null ? readTimeout : DEFAULT_READ_TIMEOUT;
        }
    }

    public record LinkedIn(String apiBaseUrl, String version, Duration connectTimeout, Duration readTimeout) {
        public LinkedIn {
            apiBaseUrl = apiBaseUrl != null ? apiBaseUrl : "https://api.linkedin.com";
            version = version != null ? version : "202611";
            connectTimeout = connectTimeout != null ? connectTimeout : DEFAULT_CONNECT_TIMEOUT;
            readTimeout = readTimeout != null ? readTimeout : DEFAULT_READ_TIMEOUT;
        }
    }

    public record WordPress(Duration connectTimeout, Duration readTimeout) {
        public WordPress {
            connectTimeout = connectTimeout != null ? connectTimeout : DEFAULT_CONNECT_TIMEOUT;
            readTimeout = readTimeout != null ? readTimeout : DEFAULT_READ_TIMEOUT;
        }
    }
}
