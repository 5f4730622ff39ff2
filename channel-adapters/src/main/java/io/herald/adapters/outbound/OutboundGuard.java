package io.herald.adapters.outbound;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The outbound rules for a URL a workspace user supplies (DESIGN.md "Outbound safety"): http or
 * https, no userinfo, no fragment, and a host whose every address is public unicast. Checked when
 * the URL is registered ({@link #check}) and again on every connection ({@link #resolve}), where
 * the HTTP client connects to exactly the addresses checked, so a name that re-resolves to an
 * internal address (DNS rebinding) is refused.
 */
public final class OutboundGuard {

    private final OutboundProperties properties;
    private final HostResolver resolver;

    public OutboundGuard(OutboundProperties properties, HostResolver resolver) {
        this.properties = properties;
        this.resolver = resolver;
    }

    /** For tests and the local WordPress run: private networks allowed, the system resolver. */
    public static OutboundGuard privateNetworksAllowed() {
        return new OutboundGuard(OutboundProperties.privateNetworksAllowed(), HostResolver.SYSTEM);
    }

    /**
     * Why the URL may not be registered, or empty when it may. A host that does not resolve now is
     * accepted: it is checked again on every connection.
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
            return Optional.empty();
        }
    }

    /**
     * The addresses to connect to for a host, each of them allowed.
     *
     * @throws DestinationNotAllowedException when the host or any of its addresses is refused
     * @throws UnknownHostException           when the host does not resolve
     */
    public InetAddress[] resolve(String host) throws UnknownHostException {
        String name = OutboundProperties.normaliseHost(host);
        if (properties.allowedHosts().contains(name)) {
            return resolver.resolve(name);
        }
        if (AddressClassifier.nonCanonicalNumeric(name)) {
            throw new DestinationNotAllowedException("the host " + name
                    + " is an IP address in a non-standard form; write it as a.b.c.d");
        }
        if (name.contains("%")) {
            throw new DestinationNotAllowedException("the host " + name + " names a network interface (zone id)");
        }
        InetAddress[] addresses = AddressClassifier.isLiteral(name)
                ? new InetAddress[] {InetAddress.getByName(name)}
                : resolver.resolve(name);
        if (properties.allowPrivateNetworks()) {
            return addresses;
        }
        if (addresses == null || addresses.length == 0) {
            throw new UnknownHostException(name);
        }
        for (InetAddress address : addresses) {
            Optional<String> refusal = AddressClassifier.refusal(address);
            if (refusal.isPresent()) {
                // the kind of address only: an admin must not learn what internal names resolve to
                throw new DestinationNotAllowedException("the host " + name + " resolves to a " + refusal.get()
                        + " address; only public addresses may be reached");
            }
        }
        return Arrays.copyOf(addresses, addresses.length);
    }
}
