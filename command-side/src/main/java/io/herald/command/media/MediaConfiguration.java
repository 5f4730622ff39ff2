package io.herald.command.media;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The node's one {@link ImageInspector}: uploads checked and images converted for providers share
 * its decode slots and memory budget ({@code herald.media.*}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(MediaProperties.class)
class MediaConfiguration {

    @Bean
    ImageInspector imageInspector(MediaProperties properties) {
        return new ImageInspector(properties.maxSide(), new DecodeSlots(properties.maxConcurrentDecodes(),
                properties.decodeBudgetBytes(), properties.decodeWait()));
    }
}
