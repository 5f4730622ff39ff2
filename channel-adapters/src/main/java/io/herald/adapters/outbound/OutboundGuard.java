package io.herald.adapters.outbound;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The outbound rules for a URL a workspace user supplies (docs/architecture.md#outbound-safety): http or
 * https, no userinfo, no fragment, and a host whose every address is public unicast. Checked when
 * the URL is registered ({@link #check}) and again on every connection ({@link #resolve}), where
 * the HTTP client connects to exactly the addresses checked, so a name that re-resolves to an
 * internal address (DNS rebinding) is refused.
 *
 * <p>A host name that resolves to a refused address and one that does not resolve at all get the
 * same answer, word for word ({@link #NAME_NOT_PUBLIC}): otherwise a workspace admin could probe
 * which internal names exist. Only literal addresses, which reveal nothing, are told their kind.
 *
 * <p>Trusted hosts ({@code herald.outbound.allowed-hosts}) skip the address check for every
 * workspace; those of {@code allowed-hosts-by-workspace} only for the named workspace
 * ({@link #forWorkspace}).
 */
public final class OutboundGuard {

    /** The one answer for a host name that does not lead to public addresses only, whatever the reason. */
    public static final String NAME_NOT_PUBLIC = "the URL's host name does not resolve to public addresses only;"
            + " Herald reaches only hosts whose every address is public";

    private final OutboundProperties properties;
    private final HostResolver resolver;
    /** The trusted hosts for the calls this guard checks: the global ones, plus a workspace's own. */
    private final Set<String> trusted;

    public OutboundGuard(OutboundProperties properties, HostResolver resolver) {
        this(properties, resolver, Set.copyOf(properties.allowedHosts()));
    }

    private OutboundGuard(OutboundProperties properties, HostResolver resolver, Set<String> trusted) {
        this.properties = properties;
        this.resolver = resolver;
        this.trusted = trusted;
    }

    /**
     * The guard for one workspace's calls: this one when the workspace has no trusted hosts of its
     * own, else one that also trusts those. A null workspace (a call for no workspace) gets this one.
     */
    public OutboundGuard forWorkspace(String workspaceId) {
        List<String> own = workspaceId == null ? List.of() : properties.allowedHostsOf(workspaceId);
        if (own.isEmpty()) {
            return this;
        }
        Set<String> merged = new HashSet<>(trusted);
        merged.addAll(own);
        return new OutboundGuard(properties, resolver, Set.copyOf(merged));
    }

    /** True when the workspace has trusted hosts of its own, so its calls need their own guard. */
    public boolean hasOwnTrustedHosts(String workspaceId) {
        return workspaceId != null && !properties.allowedHostsOf(workspaceId).isEmpty();
    }

    /** {@link #check(String)} with the trusted hosts of the workspace that registers the URL. */
    public Optional<String> check(String url, String workspaceId) {
        return forWorkspace(workspaceId).check(url);
    }

    /** For tests and the local WordPress run: private networks allowed, the system resolver. */
    public static OutboundGuard privateNetworksAllowed() {
        return new OutboundGuard(OutboundProperties.privateNetworksAllowed(), HostResolver.SYSTEM);
    }

    /**
     * Why the URL may not be registered, or empty when it may. Where private networks are allowed
     * (development, the sandbox), a host that does not resolve now is accepted: it is checked again
     * on every connection. Elsewhere it is refused with the same words as a host that resolves
     * privately.
     */
    public Optional<String> check(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return Optional.of("the URL cannot be parsed");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return Optional.of("only http and https URLs are allowed");
        }
        if (uri.getRawUserInfo() != null || (uri.getRawAuthority() != null && uri.getRawAuthority().contains("@"))) {
            return Optional.of("the URL must not carry a user name or password");
        }
        if (uri.getRawFragment() != null) {
            return Optional.of("the URL must not carry a fragment");
        }
        if (uri.getHost() == null) {
            // java.net.URI gives no host for forms such as 127.1 or 0x7f.0.0.1
            return Optional.of("the URL's host is not a host name or a standard IP address");
        }
        try {
            resolve(uri.getHost());
            return Optional.empty();
        } catch (DestinationNotAllowedException e) {
            return Optional.of(e.getMessage());
        } catch (UnknownHostException e) {
            return properties.allowPrivateNetworks() ? Optional.empty() : Optional.of(NAME_NOT_PUBLIC);
        }
    }

    /**
     * The addresses to connect to for a host, each of them allowed.
     *
     * @throws DestinationNotAllowedException when the host or any of its addresses is refused, or,
     *                                        unless private networks are allowed, when a host name
     *                                        does not resolve (the same words either way)
     * @throws UnknownHostException           when the host does not resolve and private networks are allowed
     */
    public InetAddress[] resolve(String host) throws UnknownHostException {
        String name = OutboundProperties.normaliseHost(host);
        if (trusted.contains(name)) {
            return resolver.resolve(name);
        }
        if (AddressClassifier.nonCanonicalNumeric(name)) {
            throw new DestinationNotAllowedException("the host " + name
                    + " is an IP address in a non-standard form; write it as a.b.c.d");
        }
        if (name.contains("%")) {
            throw new DestinationNotAllowedException("the host " + name + " names a network interface (zone id)");
        }
        boolean literal = AddressClassifier.isLiteral(name);
        if (properties.allowPrivateNetworks()) {
            return literal ? new InetAddress[] {InetAddress.getByName(name)} : resolver.resolve(name);
        }
        InetAddress[] addresses;
        if (literal) {
            addresses = new InetAddress[] {InetAddress.getByName(name)};
        } else {
            try {
                addresses = resolver.resolve(name);
            } catch (DestinationNotAllowedException e) {
                throw e;
            } catch (UnknownHostException e) {
                throw new DestinationNotAllowedException(NAME_NOT_PUBLIC);
            }
        }
        if (addresses == null || addresses.length == 0) {
            throw new DestinationNotAllowedException(NAME_NOT_PUBLIC);
        }
        for (InetAddress address : addresses) {
            Optional<String> refusal = AddressClassifier.refusal(address);
            if (refusal.isPresent()) {
                // a literal address may be told its kind; a name may not (see the class comment)
                throw new DestinationNotAllowedException(literal ? "the host " + name + " is a " + refusal.get()
                        + " address; only public addresses may be reached" : NAME_NOT_PUBLIC);
            }
        }
        return Arrays.copyOf(addresses, addresses.length);
    }
}
