package io.herald.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.contracts.publication.ProviderRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProviderRefTest {

    @ParameterizedTest
    @ValueSource(strings = {"javascript:alert(1)", "JavaScript:alert(document.cookie)", " javascript:alert(1)",
            "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "file:///etc/passwd", "/?p=12",
            "//evil.example/x", "http:no-host", "not a url"})
    void aUrlThatIsNotAbsoluteHttpIsDropped(String url) {
        ProviderRef ref = new ProviderRef("42", url);

        assertThat(ref.url()).as(url).isNull();
        assertThat(ref.id()).isEqualTo("42");
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://blog.example/?p=42", "http://blog.example/2026/12/post/",
            "https://www.facebook.com/123_456", "HTTPS://www.linkedin.com/feed/update/urn:li:share:7/"})
    void anHttpUrlIsKept(String url) {
        assertThat(new ProviderRef("42", url).url()).isEqualTo(url);
    }

    @Test
    void aStoredEventWithAJavascriptUrlLosesItWhenRead() throws Exception {
        ProviderRef replayed = new ObjectMapper().readValue("{\"id\":\"42\",\"url\":\"javascript:alert(1)\"}",
                ProviderRef.class);

        assertThat(replayed).isEqualTo(new ProviderRef("42", null));
    }
}
