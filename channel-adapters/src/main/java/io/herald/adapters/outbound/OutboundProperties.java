package io.herald.adapters.outbound;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.outbound.*}: where URLs that workspace users type in may lead.
 *
 * @param allowPrivateNetworks lifts the address check (development, the demo sandbox, tests)
 * @param allowedHosts         host names an operator trusts for every workspace: they skip the address check
 * @param allowedHostsByWorkspace host names an operator trusts for one workspace only, by workspace id
 *                             ({@code herald.outbound.allowed-hosts-by-workspace.acme=wp.internal,cms.internal};
 *                             a workspace id with dots is written in brackets: {@code ...by-workspace[acme.eu]=...})
 */
@ConfigurationProperties("herald.outbound")
public record OutboundProperties(@DefaultValue("false") boolean allowPrivateNetworks,
                                 @DefaultValue List<String> allowedHosts,
                                 Map<String, List<String>> allowedHostsByWorkspace) {

    public OutboundProperties {
        allowedHosts = normaliseAll(allowedHosts);
        Map<String, List<String>> byWorkspace = new LinkedHashMap<>();
        if (allowedHostsByWorkspace != null) {
            allowedHostsByWorkspace.forEach((workspace, hosts) -> {
                List<String> normalised = normaliseAll(hosts);
                if (!normalised.isEmpty()) {
                    byWorkspace.put(workspace, normalised);
                }
            });
        }
        allowedHostsByWorkspace = Map.copyOf(byWorkspace);
    }

    public static OutboundProperties strict() {
        return new OutboundProperties(false, List.of(), Map.of());
    }

    public static OutboundProperties privateNetworksAllowed() {
        return new OutboundProperties(true, List.of(), Map.of());
    }

    /** The hosts trusted for this workspace alone (not those trusted for all). */
    public List<String> allowedHostsOf(String workspaceId) {
        return allowedHostsByWorkspace.getOrDefault(workspaceId, List.of());
    }

    private static List<String> normaliseAll(List<String> hosts) {
        return hosts == null ? List.of()
                : hosts.stream().map(OutboundProperties::normaliseHost).filter(h -> !h.isEmpty()).toList();
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
