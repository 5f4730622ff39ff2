package io.herald.adapters.http;

import java.net.URI;

/**
 * Scheme, host and port of a URI: a link a provider hands back (a paging link, an upload URL) is
 * followed with the connection's credentials only when it has the origin of the provider's base.
 */
public record Origin(String scheme, String host, int port) {

    public static Origin of(URI uri) {
        return new Origin(uri.getScheme(), uri.getHost(), uri.getPort());
    }

    public static boolean same(URI a, URI b) {
        return of(a).equals(of(b));
    }
}
