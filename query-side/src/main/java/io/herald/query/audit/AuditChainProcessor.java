package io.herald.query.audit;

import java.util.ArrayList;
import java.util.List;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DisallowReplay;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * Follows the store and appends every event to its workspace's hash chain, a batch at a time, in
 * the batch's transaction with the processor's token. The appends never wait on a chain head:
 * this runs after them, on its own token. One segment, so the chain has one writer and one order
 * (the store's); a new processor starts from the first event, so on an existing store its first
 * run computes the chain of everything stored before (progress: {@code GET
 * /api/v1/admin/audit/chain}). It cannot be reset, so it is no projection to rebuild: a chain is
 * only ever appended to, and a replay would only read the whole store again through the processor
 * to find every event chained already. With
 * {@code herald.audit.chain-enabled=false} it is not registered on this node, so the benchmark can
 * measure a publication's cost without it; its token then waits, and the chain catches up later.
 */
@Component
@DisallowReplay
@ConditionalOnProperty(name = "herald.audit.chain-enabled", havingValue = "true", matchIfMissing = true)
@ProcessingGroup(AuditChainProcessor.PROCESSING_GROUP)
public class AuditChainProcessor {

    public static final String PROCESSING_GROUP = "audit-chain";

    private static final String BATCH = AuditChainProcessor.class.getName() + ".batch";

    private final AuditChainRepository chain;

    AuditChainProcessor(AuditChainRepository chain) {
        this.chain = chain;
    }

    /**
     * Every event, by its position only: the chain reads the stored rows themselves, so the payload
     * is never deserialised here and an event no class can read (a dead letter elsewhere) is chained
     * like any other instead of stopping the chain.
     */
    @EventHandler(payloadType = Object.class)
    void on(TrackingToken token) {
        long position = token.position().orElseThrow(() ->
                new IllegalStateException("the audit chain needs the store's positions"));
        if (!CurrentUnitOfWork.isStarted()) {
            chain.chain(List.of(position));
            return;
        }
        UnitOfWork<?> root = CurrentUnitOfWork.get().root();
        List<Long> batch = root.getOrComputeResource(BATCH, key -> {
            List<Long> positions = new ArrayList<>();
            // once per batch, before its transaction and token commit
            root.onPrepareCommit(uow -> chain.chain(positions));
            return positions;
        });
        batch.add(position);
    }
}
