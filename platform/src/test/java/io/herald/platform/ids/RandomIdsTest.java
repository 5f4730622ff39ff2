package io.herald.platform.ids;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.axonframework.common.IdentifierFactory;
import org.junit.jupiter.api.Test;

class RandomIdsTest {

    @Test
    void idsAreRandomVersion4UuidsAndDistinct() {
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            UUID id = RandomIds.uuid();
            assertThat(id.version()).isEqualTo(4);
            assertThat(id.variant()).isEqualTo(2);
            assertThat(UUID.fromString(id.toString())).isEqualTo(id);
            seen.add(id);
        }
        assertThat(seen).hasSize(10_000);
    }

    @Test
    void axonTakesItsIdentifiersFromThisFactory() {
        assertThat(IdentifierFactory.getInstance()).isInstanceOf(ThreadRandomIdentifierFactory.class);
        assertThat(UUID.fromString(IdentifierFactory.getInstance().generateIdentifier()).version()).isEqualTo(4);
    }
}
