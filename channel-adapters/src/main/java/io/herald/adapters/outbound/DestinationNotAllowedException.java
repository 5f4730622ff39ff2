package io.herald.adapters.outbound;

import java.net.UnknownHostException;

/**
 * A destination Herald refuses to reach. An {@link UnknownHostException}, so an HTTP client
 * reports it as a failure to resolve: the request provably never left.
 */
public class DestinationNotAllowedException extends UnknownHostException {

    public DestinationNotAllowedException(String message) {
        super(message);
    }
}
