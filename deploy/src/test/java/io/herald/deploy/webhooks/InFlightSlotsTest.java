package io.herald.deploy.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.contracts.id.WorkspaceId;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InFlightSlotsTest {

    private final WorkspaceId flood = WorkspaceId.of("flood");
    private final WorkspaceId quiet = WorkspaceId.of("quiet");

    @Test
    void aWorkspaceHoldsAtMostItsShareAndTheRestStaysForTheOthers() {
        InFlightSlots slots = new InFlightSlots(10, 4);
        for (int i = 0; i < 4; i++) {
            assertThat(slots.tryAcquire(flood)).isTrue();
        }
        assertThat(slots.tryAcquire(flood)).as("beyond its share").isFalse();
        assertThat(slots.free()).isEqualTo(6);
        assertThat(slots.busy()).isEqualTo(Map.of(flood, 4));
        assertThat(slots.tryAcquire(quiet)).as("another workspace still gets one").isTrue();

        slots.release(flood);
        assertThat(slots.busy()).isEqualTo(Map.of(flood, 3, quiet, 1));
        assertThat(slots.tryAcquire(flood)).isTrue();
        slots.release(quiet);
        assertThat(slots.busy()).as("a workspace with nothing open is not listed").isEqualTo(Map.of(flood, 4));
        assertThatThrownBy(() -> slots.release(quiet)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theNodesTotalBoundsEveryWorkspaceTogether() {
        InFlightSlots slots = new InFlightSlots(3, 2);
        assertThat(slots.tryAcquire(flood)).isTrue();
        assertThat(slots.tryAcquire(flood)).isTrue();
        assertThat(slots.tryAcquire(quiet)).isTrue();
        assertThat(slots.tryAcquire(WorkspaceId.of("third"))).as("the node is full").isFalse();
        assertThat(slots.free()).isZero();
    }
}
