package io.herald.adapters.outbound;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Turns a host name into addresses; the system resolver in production, replaceable in tests. */
@FunctionalInterface
public interface HostResolver {

    HostResolver SYSTEM = InetAddress::getAllByName;

    InetAddress[] resolve(String host) throws UnknownHostException;
}
