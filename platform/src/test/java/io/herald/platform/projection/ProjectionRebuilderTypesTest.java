package io.herald.platform.projection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.axonframework.serialization.SimpleSerializedType;
import org.axonframework.serialization.upcasting.event.IntermediateEventRepresentation;
import org.axonframework.serialization.upcasting.event.SingleEventUpcaster;
import org.junit.jupiter.api.Test;

class ProjectionRebuilderTypesTest {

    /** Reads revision 1 of a type as revision 2 of the same type. */
    static final class NextRevision extends SingleEventUpcaster implements RevisionUpcaster {
        @Override
        protected boolean canUpcast(IntermediateEventRepresentation representation) {
            return "1".equals(representation.getType().getRevision());
        }

        @Override
        protected IntermediateEventRepresentation doUpcast(IntermediateEventRepresentation representation) {
            return representation.upcastPayload(new SimpleSerializedType(representation.getType().getName(), "2"),
                    String.class, payload -> payload);
        }
    }

    /** Reads an old type under a new name. */
    static final class Renamed extends SingleEventUpcaster {
        @Override
        protected boolean canUpcast(IntermediateEventRepresentation representation) {
            return "com.example.OldName".equals(representation.getType().getName());
        }

        @Override
        protected IntermediateEventRepresentation doUpcast(IntermediateEventRepresentation representation) {
            return representation.upcastPayload(new SimpleSerializedType("com.example.NewName", "1"),
                    String.class, payload -> payload);
        }
    }

    @Test
    void onlyUpcastersThatMayRenameATypeMakeARebuildReadEveryType() {
        assertThat(ProjectionRebuilder.mayChangeTypes(List.of())).isFalse();
        assertThat(ProjectionRebuilder.mayChangeTypes(List.of(new NextRevision(), new NextRevision()))).isFalse();
        assertThat(ProjectionRebuilder.mayChangeTypes(List.of(new NextRevision(), new Renamed()))).isTrue();
        assertThat(ProjectionRebuilder.mayChangeTypes(List.of(new Renamed()))).isTrue();
    }
}
