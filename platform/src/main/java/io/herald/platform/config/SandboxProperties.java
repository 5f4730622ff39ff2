package io.herald.platform.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.sandbox.*}: the provider sandbox's switch, read by the simulators, the security
 * rules (its paths are open only when it is on) and the start-up report, hence here.
 *
 * @param enabled               serve the simulators under {@code /sandbox/**}, point Facebook and
 *                              LinkedIn at them and create the {@code demo} workspace
 * @param allowExternalDatabase with {@code spring.datasource.url} set the sandbox refuses to start
 *                              (it would register its demo workspace, key and connections in that
 *                              database) unless this is {@code true}
 */
@ConfigurationProperties("herald.sandbox")
public record SandboxProperties(
        @DefaultValue("false") boolean enabled,
        @DefaultValue("false") boolean allowExternalDatabase) {
}
