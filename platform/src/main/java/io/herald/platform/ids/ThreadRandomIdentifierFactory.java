package io.herald.platform.ids;

import org.axonframework.common.IdentifierFactory;

/**
 * Axon's identifiers of messages and events ({@code event_identifier}), from {@link RandomIds}:
 * random UUIDs as Axon's default factory makes them, without its one lock shared by every thread.
 * Axon finds this factory through {@code META-INF/services}.
 */
public final class ThreadRandomIdentifierFactory extends IdentifierFactory {

    @Override
    public String generateIdentifier() {
        return RandomIds.uuid().toString();
    }
}
