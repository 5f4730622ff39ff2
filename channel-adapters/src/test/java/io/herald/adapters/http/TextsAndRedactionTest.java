package io.herald.adapters.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.linkedin.LittleText;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextsAndRedactionTest {

    @Test
    void escapesEveryReservedLinkedInCharacterAndBack() {
        String text = "a\\b|c{d}e@f[g]h(i)j<k>l#m*n_o~p";

        String escaped = LittleText.escape(text);

        assertThat(escaped).isEqualTo("a\\\\b\\|c\\{d\\}e\\@f\\[g\\]h\\(i\\)j\\<k\\>l\\#m\\*n\\_o\\~p");
        assertThat(LittleText.unescape(escaped)).isEqualTo(text);
    }

    @Test
    void redactsKnownSecretsAccessTokenParametersAndAuthorizationValues() {
        String text = "token SeCrEt1234 in https://x/?access_token=OTHERTOKEN&a=1 and "
                + "{\"access_token\":\"JSONTOKEN\"} and Authorization: Bearer abcdefghijkl and pass abcd efgh / abcdefgh";

        String redacted = Redactor.redact(text, List.of("SeCrEt1234", "abcd efgh"));

        assertThat(redacted).doesNotContain("SeCrEt1234", "OTHERTOKEN", "JSONTOKEN", "abcdefghijkl", "abcd efgh",
                "abcdefgh");
        assertThat(redacted).contains("access_token=[redacted]&a=1");
    }

    @Test
    void normalisesWhitespaceAndUnicodeForMatching() {
        assertThat(Texts.normalise("  Caf\u0065\u0301\r\n  au  lait\u00A0")).isEqualTo(Texts.normalise("Café au lait"));
        assertThat(Texts.normalise("a b")).isNotEqualTo(Texts.normalise("a  c"));
    }

    @Test
    void fingerprintIgnoresParameterOrderButNotContent() {
        String a = Fingerprints.ofParams("POST", "/1/feed", java.util.Map.of("message", "x", "published", "true"));
        String b = Fingerprints.ofParams("POST", "/1/feed", new java.util.LinkedHashMap<>(java.util.Map.of(
                "published", "true", "message", "x")));
        String c = Fingerprints.ofParams("POST", "/1/feed", java.util.Map.of("message", "y", "published", "true"));

        assertThat(a).isEqualTo(b).hasSize(64).isNotEqualTo(c);
    }
}
