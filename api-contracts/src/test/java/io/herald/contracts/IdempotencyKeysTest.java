package io.herald.contracts;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.PublicationAction;
import org.junit.jupiter.api.Test;

class IdempotencyKeysTest {

    @Test
    void matchesTheDesignTestVector() {
        var id = IdempotencyKeys.publicationId(new WorkspaceId("acme"), "entry-42", 3,
                new ChannelId("fb-main"), PublicationAction.PUBLISH);

        assertThat(id.value())
                .isEqualTo("pub_e72fc7f415caa75d9cf15fba8e3a10f575c62a5d118ff6265baddf13033b2bc5");
    }

    @Test
    void differsPerChannelVersionAndAction() {
        var ws = new WorkspaceId("acme");
        var base = IdempotencyKeys.publicationId(ws, "entry-42", 3, new ChannelId("fb-main"), PublicationAction.PUBLISH);

        assertThat(IdempotencyKeys.publicationId(ws, "entry-42", 4, new ChannelId("fb-main"), PublicationAction.PUBLISH))
                .isNotEqualTo(base);
        assertThat(IdempotencyKeys.publicationId(ws, "entry-42", 3, new ChannelId("fb-other"), PublicationAction.PUBLISH))
                .isNotEqualTo(base);
        assertThat(IdempotencyKeys.publicationId(ws, "entry-42", 3, new ChannelId("fb-main"), PublicationAction.DRAFT))
                .isNotEqualTo(base);
    }
}
