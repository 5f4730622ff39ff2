package io.herald.reconciliation;

import io.herald.contracts.publication.ReconciliationHint;
import java.lang.reflect.Method;
import org.axonframework.messaging.Message;
import org.axonframework.messaging.annotation.HandlerEnhancerDefinition;
import org.axonframework.messaging.annotation.MessageHandlingMember;
import org.axonframework.messaging.annotation.WrappedMessageHandlingMember;

/**
 * Makes a handler marked {@link FollowsOpenReconciliation} decline events whose publication never
 * had an unknown outcome. The saga manager looks up the sagas associated with each event a saga
 * handler matches (in the segment of the event's publication): two lookups for every publication
 * that simply succeeded. A declined event costs none. Registered through
 * {@code META-INF/services}, as Axon finds handler enhancers.
 */
public final class ReconciliationHintFilter implements HandlerEnhancerDefinition {

    @Override
    public <T> MessageHandlingMember<T> wrapHandler(MessageHandlingMember<T> original) {
        boolean marked = original.unwrap(Method.class)
                .map(method -> method.isAnnotationPresent(FollowsOpenReconciliation.class))
                .orElse(false);
        return marked ? new Filtered<>(original) : original;
    }

    private static final class Filtered<T> extends WrappedMessageHandlingMember<T> {

        Filtered(MessageHandlingMember<T> delegate) {
            super(delegate);
        }

        @Override
        public boolean canHandle(Message<?> message) {
            return !ReconciliationHint.neverOpened(message.getMetaData()) && super.canHandle(message);
        }
    }
}
