package io.herald.adapters.outbound;

import java.util.List;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.outbound.*}: where URLs that workspace users type in may lead.
 *
 * @param allowPrivateNetworks lifts the address check (development, the demo sandbox, tests)
 * @param allowedHosts         host names an operator trusts: they skip the address check
 */
@ConfigurationProperties("herald.outbound")
public record OutboundProperties(@DefaultValue("false") boolean allowPrivateNetworks,
                                 @DefaultValue List<String> allowedHosts) {

    public OutboundProperties {
        allowedHosts = allowedHosts == null ? List.of()
                : allowedHosts.stream().map(OutboundProperties::normaliseHost).filter(h -> !h.isEmpty()).toList();
    }

    public static OutboundProperties strict() {
        return new OutboundProperties(false, List.of());
    }

    public static OutboundProperties privateNetworksAllowed() {
        return new OutboundProperties(true, List.of());
    }

    /** Lower case, without IPv6 brackets or a trailing dot: the form hosts are compared in. */
    static String normaliseHost(String host) {
        String h = host.trim().toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }
}
