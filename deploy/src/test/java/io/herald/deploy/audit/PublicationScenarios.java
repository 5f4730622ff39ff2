package io.herald.deploy.audit;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptTrace;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.RecordAttemptFailedCommand;
import io.herald.contracts.publication.RecordAttemptOutcomeUnknownCommand;
import io.herald.contracts.publication.RecordAttemptSucceededCommand;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.StartAttemptCommand;
import io.herald.contracts.publication.UnknownCause;
import java.time.Duration;
import java.time.Instant;
import org.axonframework.commandhandling.gateway.CommandGateway;

/**
 * Moves publications through their states with the commands the dispatcher, the result recorder
 * and the timer sweep send, for tests that need a given state now. Publications requested with a
 * {@code scheduledAt} a day ahead wait on their timer row until then, so these commands do not race
 * the dispatcher.
 */
public final class PublicationScenarios {

    public static final String FINGERPRINT = "4f9c0b8e6f1d2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3";

    private final CommandGateway commands;

    public PublicationScenarios(CommandGateway commands) {
        this.commands = commands;
    }

    /** The request body of a publication to a day from now, so nothing runs on its own during a test. */
    public static String scheduledRequest(String entry, int version, String channel, String text) {
        return """
                {"calendarEntryId":"%s","contentVersion":%d,"channelId":"%s","action":"publish",
                 "content":{"body":"%s","link":"https://example.org/%s"},"scheduledAt":"%s"}"""
                .formatted(entry, version, channel, text, entry, Instant.now().plus(Duration.ofDays(1))
                        .truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    }

    public int startAttempt(String id) {
        AttemptDecision started = commands.sendAndWait(new StartAttemptCommand(PublicationId.of(id), 0,
                AttemptTrigger.INITIAL, Instant.now(), Duration.ofMinutes(10), false));
        return started.attemptNo();
    }

    public void succeed(String id, int attemptNo) {
        commands.sendAndWait(new RecordAttemptSucceededCommand(PublicationId.of(id), attemptNo,
                new ProviderRef("1234567890_" + attemptNo, "https://facebook.example/posts/" + attemptNo),
                new AttemptTrace(FINGERPRINT, "1234567890", Instant.now(), true, 200, null, "AbCdTrace" + attemptNo,
                        120), Instant.now()));
    }

    public void rejected(String id, int attemptNo) {
        commands.sendAndWait(new RecordAttemptFailedCommand(PublicationId.of(id), attemptNo, FailureKind.REJECTED, "190",
                "(#190) This method must be called with a Page Access Token",
                new AttemptTrace(FINGERPRINT, "1234567890", Instant.now(), true, 400, "190", "FbTrace190", 80),
                null, Instant.now()));
    }

    public void notSentRetryTomorrow(String id, int attemptNo) {
        commands.sendAndWait(new RecordAttemptFailedCommand(PublicationId.of(id), attemptNo, FailureKind.NOT_SENT,
                "connect_refused", "connection refused",
                new AttemptTrace(FINGERPRINT, "1234567890", null, false, null, null, null, 3),
                Duration.ofDays(1), Instant.now()));
    }

    public void unknown(String id, int attemptNo) {
        commands.sendAndWait(new RecordAttemptOutcomeUnknownCommand(PublicationId.of(id), attemptNo,
                UnknownCause.READ_TIMEOUT, "no answer within the 30 s read timeout after the request was sent",
                new AttemptTrace(FINGERPRINT, "1234567890", Instant.now(), false, null, null, null, 30_000),
                Instant.now()));
    }

    public void readBack(String id, int attemptNo, ReconciliationResult result, String detail) {
        commands.sendAndWait(new RecordReconciliationCommand(PublicationId.of(id), attemptNo, result,
                result == ReconciliationResult.FOUND ? new ProviderRef("1234567890_found", null) : null, detail,
                Instant.now()));
    }
}
