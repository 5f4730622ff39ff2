package io.herald.deploy.http;

import io.herald.access.RequestBodyLimitFilter;
import io.herald.command.media.MediaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The body limit filter lives in access; the media upload limit it honours is the command side's. */
@Configuration(proxyBeanMethods = false)
class RequestLimitsConfiguration {

    @Bean
    RequestBodyLimitFilter requestBodyLimitFilter(MediaProperties media) {
        return new RequestBodyLimitFilter(media.maxBytes().toBytes());
    }
}
