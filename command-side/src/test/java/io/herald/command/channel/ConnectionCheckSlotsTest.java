package io.herald.command.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.contracts.id.WorkspaceId;
import org.junit.jupiter.api.Test;

class ConnectionCheckSlotsTest {

    private static final WorkspaceId ACME = new WorkspaceId("acme");
    private static final WorkspaceId GLOBEX = new WorkspaceId("globex");
    private static final WorkspaceId INITECH = new WorkspaceId("initech");

    @Test
    void aWorkspaceChecksOneConnectionAtATimeAndTheNodeItsMaximum() {
        ConnectionCheckSlots slots = new ConnectionCheckSlots(2);
        ConnectionCheckSlots.Slot acme = slots.take(ACME);

        assertThatThrownBy(() -> slots.take(ACME)).isInstanceOf(ConnectionCheckSlots.Busy.class)
                .hasMessageContaining("workspace");
        ConnectionCheckSlots.Slot globex = slots.take(GLOBEX);
        assertThatThrownBy(() -> slots.take(INITECH)).isInstanceOf(ConnectionCheckSlots.Busy.class)
                .hasMessageContaining("node");

        acme.close();
        acme.close(); // a second close gives nothing back twice
        ConnectionCheckSlots.Slot initech = slots.take(INITECH);
        assertThatThrownBy(() -> slots.take(ACME)).isInstanceOf(ConnectionCheckSlots.Busy.class);
        globex.close();
        initech.close();
        // a workspace refused by the node's limit did not keep its own slot
        assertThat(slots.take(INITECH)).isNotNull();
        assertThat(slots.take(ACME)).isNotNull();
    }
}
