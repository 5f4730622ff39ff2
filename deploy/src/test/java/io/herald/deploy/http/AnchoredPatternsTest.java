package io.herald.deploy.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * An anchored pattern, searched for anywhere in a value (as JSON Schema does), accepts exactly the
 * values the original pattern matches as a whole (as {@code @Pattern} does).
 */
class AnchoredPatternsTest {

    @Test
    void unanchoredAControlCharacterPatternAcceptsAnyValueAnchoredItDoesNot() {
        String noControl = "[^\\x00-\\x1F\\x7F]*";
        assertThat(Pattern.compile(noControl).matcher("AC\u0001ME").find()).isTrue();
        assertThat(Pattern.compile(AnchoredPatterns.anchored(noControl)).matcher("AC\u0001ME").find()).isFalse();
    }

    @Test
    void anchorsWithoutChangingWhatAWholeMatchAccepts() {
        assertThat(AnchoredPatterns.anchored("[0-9]{1,32}")).isEqualTo("^[0-9]{1,32}$");
        assertThat(AnchoredPatterns.anchored("publish|draft")).isEqualTo("^(?:publish|draft)$");
        assertThat(AnchoredPatterns.anchored("(a)|(b)")).isEqualTo("^(?:(a)|(b))$");
        assertThat(AnchoredPatterns.anchored("[|]x")).isEqualTo("^[|]x$");
        assertThat(AnchoredPatterns.anchored("a\\|b")).isEqualTo("^a\\|b$");
        assertThat(AnchoredPatterns.anchored("^(a|b)$")).isEqualTo("^(a|b)$");
        assertThat(AnchoredPatterns.anchored("^a|b$")).isEqualTo("^(?:^a|b$)$");

        List<String> originals = List.of("[^\\x00-\\x1F\\x7F]*", "publish|draft|update|delete",
                "(did:[a-z]+:[A-Za-z0-9._:%-]{1,2000})|([A-Za-z0-9][A-Za-z0-9.-]{0,252})", "https?://\\S+",
                "[\\x21-\\x7e]*", "med_[0-9a-f]{64}");
        List<String> values = List.of("", "ACME", "AC\u0001ME", "\u007f", "publish", "republish", "publisher",
                "did:plc:abc", "x did:plc:abc", "alice.bsky.social", "-alice", "https://a.example",
                "see https://a.example", "https://a example", "a b", "med_" + "0".repeat(64),
                "med_" + "0".repeat(64) + "x");
        for (String original : originals) {
            Pattern whole = Pattern.compile(original);
            Pattern anywhere = Pattern.compile(AnchoredPatterns.anchored(original));
            for (String value : values) {
                assertThat(anywhere.matcher(value).find()).as("%s on %s", original, value)
                        .isEqualTo(whole.matcher(value).matches());
            }
        }
    }
}
