package io.herald.deploy.axon;

import java.util.Set;
import org.axonframework.common.IdentifierFactory;
import org.axonframework.config.Configuration;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.Segment;
import org.axonframework.modelling.saga.AnnotatedSagaManager;
import org.axonframework.modelling.saga.AssociationValue;
import org.axonframework.modelling.saga.SagaManagerSpanFactory;

/**
 * A saga manager for sagas that follow one association value each (Herald's publishing and
 * reconciliation sagas follow the {@code publicationId}). Only the segment that matches an
 * event's association value handles it.
 *
 * <p>Axon's own manager lets every segment take every saga event. Each segment looks up the sagas
 * of that event's association, then keeps those whose id falls in the segment. With two segments,
 * every saga event costs two lookups, and one of them never finds a saga it may use.
 *
 * <p>Axon already starts a saga only in the segment that matches its association value, and it
 * gives the saga an id in that same segment. This manager does the same for new sagas, and looks
 * up an event's sagas only in that segment. Under the same segment layout, a saga therefore runs
 * in the same segment as under Axon's manager, also for sagas stored before. After a segment is
 * split or merged, an id may fall in another segment than the association value. The saga still
 * runs in exactly one segment, the association value's.
 *
 * <p>An event that carries more than one association value for the saga has no single segment
 * and is refused: the processor stops on it rather than run a saga twice or never.
 */
public final class AssociationSegmentSagaManager<T> extends AnnotatedSagaManager<T> {

    public AssociationSegmentSagaManager(Builder<T> builder) {
        super(builder);
    }

    /** The manager of {@code sagaType} as Axon's configuration builds it, with this segment rule. */
    public static <T> AssociationSegmentSagaManager<T> of(Class<T> sagaType, Configuration config) {
        EventProcessingConfiguration processing = config.eventProcessingConfiguration();
        return new AssociationSegmentSagaManager<>(AnnotatedSagaManager.<T>builder()
                .sagaType(sagaType)
                .sagaRepository(processing.sagaConfiguration(sagaType).repository())
                .parameterResolverFactory(config.parameterResolverFactory())
                .handlerDefinition(config.handlerDefinition(sagaType))
                .listenerInvocationErrorHandler(processing.listenerInvocationErrorHandler(
                        processing.sagaProcessingGroup(sagaType)))
                .spanFactory(config.getComponent(SagaManagerSpanFactory.class)));
    }

    @Override
    public boolean canHandle(EventMessage<?> event, Segment segment) {
        if (!super.canHandle(event, segment)) {
            return false;
        }
        Set<AssociationValue> values = extractAssociationValues(event);
        if (values.size() > 1) {
            throw new IllegalStateException(getSagaType().getSimpleName() + " follows more than one association"
                    + " value in " + event.getPayloadType().getSimpleName() + "; its saga manager needs one");
        }
        return values.size() == 1 && segment.matches(values.iterator().next());
    }

    /** Every saga found for an event this segment handles belongs to it (see {@link #canHandle}). */
    @Override
    protected boolean matchesSegment(Segment segment, String sagaId) {
        return true;
    }

    /** As Axon's manager: an id in the segment, so a node still on Axon's rule agrees on the saga's place. */
    @Override
    protected String createSagaIdentifier(Segment segment) {
        String identifier;
        do {
            identifier = IdentifierFactory.getInstance().generateIdentifier();
        } while (!segment.matches(identifier));
        return identifier;
    }
}
