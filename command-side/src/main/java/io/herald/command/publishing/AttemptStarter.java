package io.herald.command.publishing;

import io.herald.platform.logging.MdcScope;
import io.herald.platform.tracing.Traces;
import io.herald.platform.unitofwork.AfterCommit;
import io.herald.command.publishing.PublicationTimers.Kind;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.StartAttemptCommand;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.messaging.MetaData;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Sends {@code StartAttempt} inside the caller's unit of work (the dispatcher's batch, the sweep's
 * batch) and acts on the publication's decision: a started attempt is handed to the calls only
 * after that unit of work committed (rule 1: the write-ahead is on record first); an attempt that
 * must wait, or read back first, gets a timer row in the same transaction, so a crash cannot lose it.
 */
@Component
public class AttemptStarter {

    private static final Logger log = LoggerFactory.getLogger(AttemptStarter.class);
    /** How long a read before a re-attempt may take before its timer row asks again. */
    static final Duration READ_FIRST_LEASE = Duration.ofMinutes(1);

    private final CommandGateway commands;
    private final PublicationTimers timers;
    private final AttemptCaller calls;
    private final GroupCommit groupCommit;
    private final PublishingProperties properties;
    private final Clock clock;

    public AttemptStarter(CommandGateway commands, PublicationTimers timers, AttemptCaller calls,
                          GroupCommit groupCommit, PublishingProperties properties, Clock clock) {
        this.commands = commands;
        this.groupCommit = groupCommit;
        this.timers = timers;
        this.calls = calls;
        this.properties = properties;
        this.clock = clock;
    }

    /** Must run inside a unit of work with a transaction. */
    public AttemptDecision start(PublicationId publicationId, int expectedAttemptNo, AttemptTrigger trigger,
                                 boolean readBeforeCreateDone) {
        MetaData origin = origin();
        try (var ignored = mdc(publicationId, origin)) {
            return start(publicationId, expectedAttemptNo, trigger, readBeforeCreateDone, origin);
        }
    }

    private AttemptDecision start(PublicationId publicationId, int expectedAttemptNo, AttemptTrigger trigger,
                                  boolean readBeforeCreateDone, MetaData origin) {
        StartAttemptCommand command = new StartAttemptCommand(publicationId, expectedAttemptNo, trigger,
                clock.instant(), properties.attemptTimeout(), readBeforeCreateDone);
        AttemptDecision decision = commands.sendAndWait(GenericCommandMessage.asCommandMessage(command)
                .andMetaData(origin));
        switch (decision.verdict()) {
            case START -> AfterCommit.run("attempt " + decision.attemptNo() + " of " + publicationId,
                    () -> calls.call(decision, command.startedAt().plus(command.attemptTimeout()), origin));
            case READ_FIRST -> {
                timers.setIn(publicationId, Kind.ATTEMPT_DUE, decision.attemptNo(), trigger, 0, READ_FIRST_LEASE);
                // nothing there (or no way to look): ask again, now with the read done; the row is then moot
                AfterCommit.run("read before attempt " + decision.attemptNo() + " of " + publicationId,
                        () -> calls.readFirst(decision, origin).thenAccept(write -> {
                            if (write) {
                                groupCommit.run(() -> start(publicationId, decision.attemptNo(), trigger, true));
                            }
                        }).exceptionally(failure -> {
                            log.error("read before attempt {} of {} broke; its timer row asks again",
                                    decision.attemptNo(), publicationId, failure);
                            return null;
                        }));
            }
            case WAIT -> timers.setAt(publicationId, Kind.ATTEMPT_DUE, decision.attemptNo(), trigger,
                    decision.notBefore());
            case REFUSED -> log.debug("no attempt for {}: {} ({})", publicationId, decision.refusal(),
                    decision.detail());
        }
        return decision;
    }

    /** The correlation id, actor and trace of the message being handled travel on to the attempt. */
    public static MetaData origin() {
        if (!CurrentUnitOfWork.isStarted() || CurrentUnitOfWork.get().getMessage() == null) {
            return MetaData.emptyInstance();
        }
        return CurrentUnitOfWork.get().getMessage().getMetaData()
                .subset(MdcScope.CORRELATION_ID, MdcScope.ACTOR, Traces.TRACEPARENT);
    }

    /** The dispatcher's and the sweep's log lines name the publication and the request that caused them. */
    private static MdcScope mdc(PublicationId publicationId, MetaData origin) {
        Map<String, String> values = new HashMap<>();
        values.put(MdcScope.PUBLICATION_ID, publicationId.value());
        Object correlationId = origin.get(MdcScope.CORRELATION_ID);
        if (correlationId != null) {
            values.put(MdcScope.CORRELATION_ID, correlationId.toString());
        }
        return new MdcScope(values);
    }
}
