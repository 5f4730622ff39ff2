package io.herald.command.channel;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.contracts.id.WorkspaceId;
import org.junit.jupiter.api.Test;

class ProbeSlotsTest {

    private static final WorkspaceId ACME = new WorkspaceId("acme");

    private final ProbeSlots slots = new ProbeSlots();

    @Test
    void refusesAThirdProbeOfOneWorkspaceButNotAnotherWorkspacesFirst() {
        CapabilityProbes.Slot first = slots.take(ACME);
        slots.take(ACME);
        assertThatThrownBy(() -> slots.take(ACME)).isInstanceOf(ProbeSlots.TooManyProbes.class);
        assertThatCode(() -> slots.take(new WorkspaceId("globex"))).doesNotThrowAnyException();

        first.close();
        assertThatCode(() -> slots.take(ACME)).doesNotThrowAnyException();
    }

    @Test
    void aSlotClosedTwiceFreesOnlyItself() {
        CapabilityProbes.Slot first = slots.take(ACME);
        slots.take(ACME);
        first.close();
        first.close();
        slots.take(ACME);
        assertThatThrownBy(() -> slots.take(ACME)).isInstanceOf(ProbeSlots.TooManyProbes.class);
    }
}
