package io.herald.adapters.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Address literals only: nothing here resolves a name or opens a connection. */
class OutboundGuardTest {

    /** Answers only from its table; any other name "does not exist". */
    private static HostResolver table(Map<String, String> names) {
        return host -> {
            String address = names.get(host);
            if (address == null) {
                throw new UnknownHostException(host);
            }
            return new InetAddress[] {InetAddress.getByName(address)};
        };
    }

    private final OutboundGuard strict = new OutboundGuard(OutboundProperties.strict(), table(Map.of(
            "blog.example", "93.184.216.34",
            "127.0.0.1.example", "127.0.0.1",
            "inside.example", "10.1.2.3",
            "metadata.example", "169.254.169.254",
            "trusted.internal", "10.0.0.7")));

    @ParameterizedTest
    @ValueSource(strings = {
            "127.0.0.1", "127.255.255.254", "::1",
            "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1",
            "169.254.169.254", "169.254.0.1", "fe80::1",
            "100.64.0.1", "100.127.255.255",
            "fc00::1", "fd12:3456::1",
            "224.0.0.1", "239.255.255.250", "ff02::1",
            "0.0.0.0", "::", "0.1.2.3", "255.255.255.255", "240.0.0.1",
            "192.0.0.8", "192.0.2.1", "198.18.0.1", "198.51.100.7", "203.0.113.9", "2001:db8::1",
            "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254",
            "::127.0.0.1", "::10.0.0.1",
            "2002:7f00:1::", "2002:a00:1::1", "2002:a9fe:a9fe::",
            "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b:1::1",
            "2001::1", "100::1", "fec0::1"})
    void refusesEveryNonPublicAddress(String literal) throws Exception {
        assertThat(AddressClassifier.refusal(InetAddress.getByName(literal))).as(literal).isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "1.1.1.1", "8.8.8.8", "172.32.0.1", "100.128.0.1", "192.169.0.1",
            "2606:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:93.184.216.34", "2002:5db8:d822::1",
            "64:ff9b::5db8:d822"})
    void allowsPublicUnicast(String literal) throws Exception {
        assertThat(AddressClassifier.refusal(InetAddress.getByName(literal))).as(literal).isEmpty();
    }

    @Test
    void theIpv4MappedFormIsJudgedByItsIpv4AddressEvenWhenKeptAsIpv6() throws Exception {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        mapped[12] = 127;
        mapped[15] = 1;
        // Inet6Address.getByAddress keeps the 16 bytes (InetAddress.getByName would turn it into IPv4)
        InetAddress v6 = java.net.Inet6Address.getByAddress(null, mapped, -1);
        assertThat(v6).isInstanceOf(java.net.Inet6Address.class);
        assertThat(AddressClassifier.refusal(v6)).get().asString().contains("IPv4-mapped").contains("loopback");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "http://127.0.0.1/", "http://127.0.0.1.example/", "http://[::1]:8080/",
            "http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]/", "http://[0:0:0:0:0:ffff:127.0.0.1]/",
            "http://2130706433/", "http://0177.0.0.1/", "http://127.1/", "http://0x7f.0.0.1/",
            "http://0x7f000001/", "http://017700000001/", "http://127.0.1/", "http://0/",
            "http://10.0.0.1/wp", "https://169.254.169.254/latest/meta-data", "http://[fe80::1%25eth0]/",
            "http://100.64.0.1/", "http://[fd00::1]/", "http://0.0.0.0:8080/", "http://[::]/",
            "http://inside.example/", "http://metadata.example/", "http://INSIDE.example./",
            "http://user:secret@blog.example/", "http://blog.example/#fragment", "ftp://blog.example/",
            "file:///etc/passwd", "javascript:alert(1)"})
    void refusesEveryDisallowedSiteUrl(String url) {
        assertThat(strict.check(url)).as(url).isPresent();
    }

    @Test
    void allowsAPublicSite() {
        assertThat(strict.check("https://blog.example/")).isEmpty();
        assertThat(strict.check("https://93.184.216.34:8443/blog")).isEmpty();
        assertThat(strict.check("https://[2606:4700::1111]/")).isEmpty();
    }

    @Test
    void aNameThatResolvesPrivatelyAndOneThatDoesNotResolveGetTheSameWords() throws Exception {
        assertThat(strict.check("https://inside.example/")).contains(OutboundGuard.NAME_NOT_PUBLIC);
        assertThat(strict.check("https://metadata.example/")).contains(OutboundGuard.NAME_NOT_PUBLIC);
        assertThat(strict.check("https://not-registered.example/")).contains(OutboundGuard.NAME_NOT_PUBLIC);
        assertThatThrownBy(() -> strict.resolve("inside.example"))
                .isInstanceOf(DestinationNotAllowedException.class).hasMessage(OutboundGuard.NAME_NOT_PUBLIC);
        assertThatThrownBy(() -> strict.resolve("not-registered.example"))
                .isInstanceOf(DestinationNotAllowedException.class).hasMessage(OutboundGuard.NAME_NOT_PUBLIC);
        // a literal address reveals nothing about internal names, so it is told its kind
        assertThat(strict.check("http://10.0.0.1/")).get().asString().contains("private");
        // where private networks are allowed, a name that does not resolve now is checked again on connect
        OutboundGuard development = new OutboundGuard(OutboundProperties.privateNetworksAllowed(), table(Map.of()));
        assertThat(development.check("https://not-registered.example/")).isEmpty();
    }

    @Test
    void hostsTrustedForOneWorkspaceAreTrustedForThatWorkspaceOnly() throws Exception {
        OutboundGuard guard = new OutboundGuard(new OutboundProperties(false, List.of("shared.internal"),
                Map.of("acme", List.of("Acme-WP.Internal."))),
                table(Map.of("acme-wp.internal", "10.0.0.8", "shared.internal", "10.0.0.9")));

        assertThat(guard.check("http://acme-wp.internal/", "acme")).isEmpty();
        assertThat(guard.forWorkspace("acme").resolve("acme-wp.internal")[0].getHostAddress()).isEqualTo("10.0.0.8");
        assertThat(guard.check("http://acme-wp.internal/", "other")).contains(OutboundGuard.NAME_NOT_PUBLIC);
        assertThat(guard.check("http://acme-wp.internal/")).contains(OutboundGuard.NAME_NOT_PUBLIC);
        assertThatThrownBy(() -> guard.forWorkspace("other").resolve("acme-wp.internal"))
                .isInstanceOf(DestinationNotAllowedException.class);
        assertThat(guard.check("http://shared.internal/", "other")).isEmpty();
        assertThat(guard.check("http://shared.internal/", "acme")).isEmpty();
        assertThat(guard.hasOwnTrustedHosts("acme")).isTrue();
        assertThat(guard.hasOwnTrustedHosts("other")).isFalse();
    }

    @Test
    void resolveRefusesWhenAnyAddressIsNotPublic() {
        HostResolver mixed = host -> new InetAddress[] {InetAddress.getByName("93.184.216.34"),
                InetAddress.getByName("127.0.0.1")};
        OutboundGuard guard = new OutboundGuard(OutboundProperties.strict(), mixed);

        assertThatThrownBy(() -> guard.resolve("rebind.example"))
                .isInstanceOf(DestinationNotAllowedException.class)
                .hasMessage(OutboundGuard.NAME_NOT_PUBLIC);
    }

    @Test
    void allowedHostsSkipTheAddressCheckAndPrivateNetworksCanBeAllowed() throws Exception {
        OutboundGuard trusting = new OutboundGuard(new OutboundProperties(false, List.of("Trusted.Internal"), Map.of()),
                table(Map.of("trusted.internal", "10.0.0.7", "inside.example", "10.1.2.3")));
        OutboundGuard development = new OutboundGuard(OutboundProperties.privateNetworksAllowed(),
                table(Map.of("inside.example", "10.1.2.3")));

        assertThat(trusting.resolve("trusted.internal")[0].getHostAddress()).isEqualTo("10.0.0.7");
        assertThat(trusting.check("http://trusted.internal:8080/")).isEmpty();
        assertThat(trusting.check("http://inside.example/")).isPresent();
        assertThat(development.check("http://inside.example/")).isEmpty();
        assertThat(development.check("http://127.0.0.1:8080/")).isEmpty();
        // odd IPv4 spellings are refused even where private networks are allowed: resolvers disagree on them
        assertThat(development.check("http://0177.0.0.1/")).isPresent();
    }
}
