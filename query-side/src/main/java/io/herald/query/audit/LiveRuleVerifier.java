package io.herald.query.audit;

import java.util.LinkedHashSet;
import java.util.Set;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.ResetHandler;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Checks the rules as the events arrive: a tracking processor that, for each batch, verifies again
 * the streams of the publications whose events the batch holds, and keeps what it finds in the
 * breach table, in the batch's transaction with its token. So the auditor's verify call reads rows,
 * not the store, and costs the same at any store size.
 *
 * <p>It keeps no copy of the rule state between batches: a stream is a few to a few dozen events,
 * read again in one query for all the batch's publications through the store's stream key, which
 * costs less than keeping and updating a serialized state per publication, and gives exactly what
 * a full verification would (the same checks over the same stored JSON). The appends themselves
 * pay nothing: this runs after them, on its own token.
 */
@Component
@ProcessingGroup(LiveRuleVerifier.PROCESSING_GROUP)
class LiveRuleVerifier {

    static final String PROCESSING_GROUP = "audit-verifier";

    private static final Logger log = LoggerFactory.getLogger(LiveRuleVerifier.class);
    /** The aggregate type of the publication events in the store. */
    private static final String PUBLICATION = "Publication";
    private static final String BATCH = LiveRuleVerifier.class.getName() + ".batch";

    private final RuleVerification verification;

    LiveRuleVerifier(RuleVerification verification) {
        this.verification = verification;
    }

    @EventHandler
    void on(Object payload, DomainEventMessage<?> event) {
        if (!PUBLICATION.equals(event.getType())) {
            return;
        }
        if (!CurrentUnitOfWork.isStarted()) {
            verification.recheck(Set.of(event.getAggregateIdentifier()));
            return;
        }
        UnitOfWork<?> root = CurrentUnitOfWork.get().root();
        Set<String> batch = root.getOrComputeResource(BATCH, key -> {
            Set<String> publications = new LinkedHashSet<>();
            // once per batch, before its transaction and token commit
            root.onPrepareCommit(uow -> verification.recheck(publications));
            return publications;
        });
        batch.add(event.getAggregateIdentifier());
    }

    /** Before a replay from the first event: the replay finds every breach again. */
    @ResetHandler
    void reset() {
        log.info("clearing the verifier's breaches for a replay");
        verification.clear();
    }
}
