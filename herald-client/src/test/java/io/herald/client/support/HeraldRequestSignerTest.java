package io.herald.client.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.client.match.MockRestRequestMatchers.header;
import static org.springframework.test.web.client.match.MockRestRequestMatchers.requestTo;
import static org.springframework.test.web.client.response.MockRestResponseCreators.withSuccess;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.client.MockRestServiceServer;
import org.springframework.web.client.RestClient;

/** The v2 signature against values computed apart from this code (docs/api.md#request-signatures). */
class HeraldRequestSignerTest {

    private static final String SECRET = "0123456789abcdef0123456789abcdef";
    private static final Clock AT = Clock.fixed(Instant.ofEpochSecond(1_700_000_000L), ZoneOffset.UTC);

    private final HeraldRequestSigner signer = new HeraldRequestSigner(SECRET, AT);

    @Test
    void signsTheMethodThePathAsSentAndTheBodysHash() {
        assertThat(signer.header(1_700_000_000L, "POST", "/api/v1/workspaces/acme/publications?x=a%20b",
                "{\"a\":1}".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("t=1700000000,v2=67e6a2aa0cf9d2f9e92345f1f7d4ca7a3728b93e8bd096a099dfbedc58577754");
    }

    @Test
    void theInterceptorSignsEachRequestItSends() {
        RestClient.Builder builder = RestClient.builder().baseUrl("http://herald.test").requestInterceptor(signer);
        MockRestServiceServer server = MockRestServiceServer.bindTo(builder).build();
        server.expect(requestTo("http://herald.test/api/v1/workspaces/acme/publications"))
                .andExpect(header(HeraldRequestSigner.HEADER,
                        "t=1700000000,v2=14f02dd96494c717482198d8f16c131e8773d30079352001c96ad43ff85972f0"))
                .andRespond(withSuccess("{}", MediaType.APPLICATION_JSON));
        builder.build().get().uri("/api/v1/workspaces/acme/publications").retrieve().toBodilessEntity();
        server.verify();
    }

    @Test
    void anotherPathOrMethodIsAnotherSignature() {
        byte[] empty = new byte[0];
        String get = signer.header(1L, "GET", "/a", empty);
        assertThat(signer.header(1L, "DELETE", "/a", empty)).isNotEqualTo(get);
        assertThat(signer.header(1L, "GET", "/a?limit=1", empty)).isNotEqualTo(get);
        assertThat(new HeraldRequestSigner(SECRET + "x", AT).header(1L, "GET", "/a", empty)).isNotEqualTo(get);
    }
}
