package io.herald.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.publication.Content;
import org.junit.jupiter.api.Test;

class ContentHashTest {

    @Test
    void sameContentSameHash() {
        assertThat(new Content("t", "body", null).hash()).isEqualTo(new Content("t", "body", null).hash());
    }

    @Test
    void movingTextBetweenFieldsChangesTheHash() {
        assertThat(new Content("ab", "c", null).hash()).isNotEqualTo(new Content("a", "bc", null).hash());
        assertThat(new Content(null, "x", null).hash()).isNotEqualTo(new Content("x", null, null).hash());
    }
}
