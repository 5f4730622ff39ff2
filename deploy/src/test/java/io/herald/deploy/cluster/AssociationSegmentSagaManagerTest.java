package io.herald.deploy.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.deploy.axon.AssociationSegmentSagaManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.axonframework.eventhandling.Segment;
import org.axonframework.messaging.unitofwork.DefaultUnitOfWork;
import org.axonframework.modelling.saga.AnnotatedSagaManager;
import org.axonframework.modelling.saga.AssociationValue;
import org.axonframework.modelling.saga.SagaEventHandler;
import org.axonframework.modelling.saga.StartSaga;
import org.axonframework.modelling.saga.repository.AnnotatedSagaRepository;
import org.axonframework.modelling.saga.repository.inmemory.InMemorySagaStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sagas run in the segment of their association value: one segment takes each saga event, and it
 * finds the saga even where the saga's id falls in another segment (as after a split).
 */
class AssociationSegmentSagaManagerTest {

    private static final List<String> HANDLED = new ArrayList<>();
    private static final Segment[] SEGMENTS = Segment.ROOT_SEGMENT.split();

    private final InMemorySagaStore store = new InMemorySagaStore();
    private final AssociationSegmentSagaManager<Follower> manager = new AssociationSegmentSagaManager<>(
            AnnotatedSagaManager.<Follower>builder()
                    .sagaType(Follower.class)
                    .sagaRepository(AnnotatedSagaRepository.<Follower>builder()
                            .sagaType(Follower.class).sagaStore(store).build()));

    @BeforeEach
    void clear() {
        HANDLED.clear();
    }

    @Test
    void onlyTheSegmentOfTheAssociationValueTakesAnEvent() throws Exception {
        String id = "pub-1";
        EventMessage<?> started = GenericEventMessage.asEventMessage(new Started(id));

        assertThat(manager.canHandle(started, segmentOf(id))).isTrue();
        assertThat(manager.canHandle(started, otherThan(segmentOf(id)))).isFalse();
    }

    @Test
    void aNewSagaGetsAnIdInItsOwnSegmentAsWithAxonsManager() throws Exception {
        String id = "pub-2";
        deliverToEverySegment(new Started(id));

        Set<String> sagas = store.findSagas(Follower.class, association(id));
        assertThat(sagas).hasSize(1);
        assertThat(segmentOf(id).matches(sagas.iterator().next())).isTrue();
        assertThat(HANDLED).containsExactly("started " + id);
    }

    @Test
    void aSagaWhoseIdFallsInAnotherSegmentStillRunsOnceInTheSegmentOfItsAssociation() throws Exception {
        String id = "pub-3";
        String foreignId;
        do {
            foreignId = UUID.randomUUID().toString();
        } while (segmentOf(id).matches(foreignId));
        store.insertSaga(Follower.class, foreignId, new Follower(), Set.of(association(id)));

        deliverToEverySegment(new Step(id));

        assertThat(HANDLED).containsExactly("step " + id);
    }

    @Test
    void anEventWithTwoAssociationValuesIsRefused() {
        EventMessage<?> linked = GenericEventMessage.asEventMessage(new Linked("pub-4", "pub-5"));

        assertThatThrownBy(() -> manager.canHandle(linked, SEGMENTS[0]))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("more than one association value");
    }

    private void deliverToEverySegment(Object payload) throws Exception {
        EventMessage<?> event = GenericEventMessage.asEventMessage(payload);
        for (Segment segment : SEGMENTS) {
            if (manager.canHandle(event, segment)) {
                DefaultUnitOfWork.startAndGet(event).executeWithResult(() -> {
                    manager.handle(event, segment);
                    return null;
                });
            }
        }
    }

    private static Segment segmentOf(String id) {
        for (Segment segment : SEGMENTS) {
            if (segment.matches(association(id))) {
                return segment;
            }
        }
        throw new AssertionError("no segment for " + id);
    }

    private static Segment otherThan(Segment segment) {
        return SEGMENTS[0].equals(segment) ? SEGMENTS[1] : SEGMENTS[0];
    }

    private static AssociationValue association(String id) {
        return new AssociationValue("id", id);
    }

    record Started(String id) {
    }

    record Step(String id) {
    }

    record Linked(String id, String other) {
    }

    public static class Follower {

        @StartSaga
        @SagaEventHandler(associationProperty = "id")
        public void on(Started event) {
            HANDLED.add("started " + event.id());
        }

        @SagaEventHandler(associationProperty = "id")
        public void on(Step event) {
            HANDLED.add("step " + event.id());
        }

        @SagaEventHandler(associationProperty = "id")
        public void byId(Linked event) {
            HANDLED.add("linked " + event.id());
        }

        @SagaEventHandler(associationProperty = "other")
        public void byOther(Linked event) {
            HANDLED.add("linked " + event.other());
        }
    }
}
