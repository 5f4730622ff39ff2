package io.herald.adapters.outbound;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Whether an address is public unicast, the only kind a workspace-supplied URL may reach. The
 * ranges are the non-global ones of the IANA special-purpose registries; IPv6 forms that carry an
 * IPv4 address (mapped, compatible, 6to4, NAT64) are judged by the address they carry.
 */
public final class AddressClassifier {

    /** Every host that inet_aton would read as an IPv4 address: 1 to 4 parts, decimal, octal or hex. */
    private static final Pattern NUMERIC_HOST =
            Pattern.compile("(?i)(0x[0-9a-f]*|[0-9]+)(\\.(0x[0-9a-f]*|[0-9]+)){0,3}\\.?");
    private static final Pattern CANONICAL_IPV4 =
            Pattern.compile("(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}");

    private AddressClassifier() {
    }

    /**
     * True for a host that looks like an IPv4 address but is not in dotted-quad form
     * ({@code 2130706433}, {@code 0177.0.0.1}, {@code 127.1}, {@code 0x7f.0.0.1}). Resolvers disagree
     * about these (the JDK reads {@code 0177} as decimal, the C library as octal), so Herald refuses
     * them rather than guess which address a client would reach.
     */
    public static boolean nonCanonicalNumeric(String host) {
        return NUMERIC_HOST.matcher(host).matches() && !CANONICAL_IPV4.matcher(host).matches();
    }

    /** A dotted-quad IPv4 or an IPv6 address: parsed as written, never looked up. */
    static boolean isLiteral(String host) {
        return CANONICAL_IPV4.matcher(host).matches() || (host.contains(":") && host.matches("[0-9a-fA-F:.]+"));
    }

    /** Why the address may not be reached, or empty when it is public unicast. */
    public static Optional<String> refusal(InetAddress address) {
        if (address instanceof Inet4Address) {
            return refusalV4(address.getAddress());
        }
        return refusalV6(address.getAddress());
    }

    private static Optional<String> refusalV4(byte[] a) {
        int b0 = a[0] & 0xff;
        int b1 = a[1] & 0xff;
        int b2 = a[2] & 0xff;
        if (b0 == 0) {
            return Optional.of(b1 == 0 && b2 == 0 && (a[3] & 0xff) == 0 ? "unspecified" : "this network (0/8)");
        }
        if (b0 == 127) {
            return Optional.of("loopback");
        }
        if (b0 == 10 || (b0 == 172 && (b1 & 0xf0) == 16) || (b0 == 192 && b1 == 168)) {
            return Optional.of("private");
        }
        if (b0 == 169 && b1 == 254) {
            return Optional.of("link-local");
        }
        if (b0 == 100 && (b1 & 0xc0) == 64) {
            return Optional.of("carrier-grade NAT (100.64/10)");
        }
        if (b0 == 192 && b1 == 0 && (b2 == 0 || b2 == 2)) {
            return Optional.of(b2 == 0 ? "IETF protocol assignments (192.0.0/24)" : "documentation");
        }
        if (b0 == 192 && b1 == 88 && b2 == 99) {
            return Optional.of("6to4 relay anycast");
        }
        if (b0 == 198 && (b1 & 0xfe) == 18) {
            return Optional.of("benchmarking (198.18/15)");
        }
        if ((b0 == 198 && b1 == 51 && b2 == 100) || (b0 == 203 && b1 == 0 && b2 == 113)) {
            return Optional.of("documentation");
        }
        if ((b0 & 0xf0) == 224) {
            return Optional.of("multicast");
        }
        if ((b0 & 0xf0) == 240) {
            return Optional.of(b0 == 255 && b1 == 255 && b2 == 255 && (a[3] & 0xff) == 255
                    ? "broadcast" : "reserved (240/4)");
        }
        return Optional.empty();
    }

    private static Optional<String> refusalV6(byte[] a) {
        if (allZero(a, 0, 10)) {
            boolean mapped = (a[10] & 0xff) == 0xff && (a[11] & 0xff) == 0xff;
            boolean compatible = a[10] == 0 && a[11] == 0;
            if (compatible && allZero(a, 12, 15)) {
                return Optional.of(a[15] == 0 ? "unspecified" : a[15] == 1 ? "loopback" : "IPv4-compatible");
            }
            if (mapped || compatible) {
                return embedded(a, 12, mapped ? "IPv4-mapped" : "IPv4-compatible");
            }
        }
        int w0 = word(a, 0);
        int w1 = word(a, 2);
        if (w0 == 0x0064 && w1 == 0xff9b && allZero(a, 4, 12)) {
            return embedded(a, 12, "NAT64");
        }
        if (w0 == 0x0064 && w1 == 0xff9b) {
            return Optional.of("local-use NAT64 (64:ff9b:1::/48)");
        }
        if (w0 == 0x2002) {
            return embedded(a, 2, "6to4");
        }
        if (w0 == 0x0100 && w1 == 0 && allZero(a, 4, 8)) {
            return Optional.of("discard-only (100::/64)");
        }
        if (w0 == 0x2001 && w1 == 0) {
            return Optional.of("Teredo (2001::/32)");
        }
        if (w0 == 0x2001 && w1 == 0x0db8) {
            return Optional.of("documentation");
        }
        if (w0 == 0x2001 && w1 == 0x0002 && word(a, 4) == 0) {
            return Optional.of("benchmarking (2001:2::/48)");
        }
        if ((a[0] & 0xfe) == 0xfc) {
            return Optional.of("unique local (fc00::/7)");
        }
        if ((a[0] & 0xff) == 0xfe && (a[1] & 0xc0) == 0x80) {
            return Optional.of("link-local");
        }
        if ((a[0] & 0xff) == 0xfe && (a[1] & 0xc0) == 0xc0) {
            return Optional.of("site-local");
        }
        if ((a[0] & 0xff) == 0xff) {
            return Optional.of("multicast");
        }
        return Optional.empty();
    }

    /** An IPv6 form carrying an IPv4 address is refused when the IPv4 address would be. */
    private static Optional<String> embedded(byte[] a, int from, String form) {
        byte[] v4 = {a[from], a[from + 1], a[from + 2], a[from + 3]};
        return refusalV4(v4).map(reason -> form + " form of a " + reason);
    }

    private static boolean allZero(byte[] a, int from, int to) {
        for (int i = from; i < to; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static int word(byte[] a, int at) {
        return ((a[at] & 0xff) << 8) | (a[at + 1] & 0xff);
    }
}
