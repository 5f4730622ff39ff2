package io.herald.deploy.process;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.contracts.publication.PublicationStep;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * What the event store says about the publications of a test, replayed stream by stream: how many
 * requests each got, the attempts, the interrupted ones and whether a read-back settled each, blind
 * retries (an attempt after an unknown outcome without a NOT_FOUND between), the one exception to
 * them counted apart (a same-key re-send of the unknown attempt, made due for a {@code client_id} or
 * {@code provider_key} connection, as docs/architecture.md#retry-safety allows), and what a timer or a
 * redelivered event that took effect twice would leave: a second INITIAL attempt of one
 * publication, two attempts under one number, two INTERRUPTED outcomes of one attempt (its
 * expiry), or two conclusive read-backs of one attempt (a read-back row).
 *
 * <p>Each step of a publication is replayed on its own (docs/architecture.md#steps-and-step-kinds): a blind retry is a
 * step made again after its own unknown outcome. Uploads and containers are repeatable, so an
 * interrupted one is not read back but made again; those are counted apart, not as interrupted
 * attempts.
 */
public final class StoredPublications {

    public final Map<String, Integer> requested = new HashMap<>();
    public int attempts;
    public int interrupted;
    public int interruptedReconciled;
    public int blindRetries;
    /** Attempts after an unknown outcome that re-send its key, made due as the retry-safety exception. */
    public int sameKeyResends;
    /** Interrupted attempts settled by such a re-send (answered with the post the provider has), not a read-back. */
    public int interruptedResent;
    public int initialTwice;
    public int attemptNumberTwice;
    public int interruptedTwice;
    public int conclusiveTwice;
    public int interruptedUploads;
    public int interruptedUploadsRepeated;
    /** Interrupted attempts (not uploads) by step: {@code post} (create, update, delete), {@code first_comment}. */
    public final Map<String, Integer> interruptedBySteps = new HashMap<>();

    public int firedTwiceWithEffect() {
        return initialTwice + attemptNumberTwice + interruptedTwice + conclusiveTwice;
    }

    /** The streams of every publication, or only those of one workspace's (from its view rows) when given. */
    public static StoredPublications read(Connection connection, ObjectMapper json, String workspace)
            throws Exception {
        StoredPublications store = new StoredPublications();
        Map<String, Integer> initial = new HashMap<>();
        Map<String, Integer> attemptNumbers = new HashMap<>();
        Map<String, Integer> interruptedPerAttempt = new HashMap<>();
        Map<String, Integer> conclusivePerAttempt = new HashMap<>();
        Map<String, Boolean> interruptedPending = new HashMap<>();
        Map<String, Boolean> unknownPending = new HashMap<>();
        Map<String, String> stepOfAttempt = new HashMap<>();
        Map<String, Boolean> uploadPending = new HashMap<>();
        Map<String, String> keyOfStep = new HashMap<>();
        Map<String, JsonNode> resendDue = new HashMap<>();
        String sql = "SELECT aggregate_identifier, payload_type, payload FROM domain_event_entry"
                + (workspace == null ? " WHERE aggregate_identifier LIKE 'pub\\_%'"
                : " WHERE aggregate_identifier IN (SELECT publication_id FROM publication_view WHERE workspace_id = ?)")
                + " ORDER BY global_index";
        try (PreparedStatement s = connection.prepareStatement(sql)) {
            if (workspace != null) {
                s.setString(1, workspace);
            }
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    String publication = rs.getString(1);
                    String type = rs.getString(2);
                    JsonNode payload = json.readTree(rs.getBytes(3));
                    String attempt = publication + "#" + payload.path("attemptNo").asInt();
                    switch (type.substring(type.lastIndexOf('.') + 1)) {
                        case "PublicationRequestedEvent" -> store.requested.merge(publication, 1, Integer::sum);
                        case "PublicationAttemptedEvent" -> {
                            store.attempts++;
                            String step = publication + "/" + stepKey(payload);
                            stepOfAttempt.put(attempt, step);
                            if (isUpload(step)) {
                                if (Boolean.TRUE.equals(uploadPending.put(step, false))) {
                                    store.interruptedUploadsRepeated++;
                                }
                            } else {
                                if (Boolean.TRUE.equals(unknownPending.get(step))) {
                                    if (sameKeyResend(payload, keyOfStep.get(step), resendDue.get(attempt))) {
                                        store.sameKeyResends++;
                                        if (Boolean.TRUE.equals(interruptedPending.put(step, false))) {
                                            store.interruptedResent++;
                                        }
                                    } else {
                                        store.blindRetries++;
                                    }
                                }
                                keyOfStep.put(step, payload.path("idempotencyKey").asText(null));
                            }
                            if ("INITIAL".equals(payload.path("trigger").asText())) {
                                initial.merge(publication, 1, Integer::sum);
                            }
                            attemptNumbers.merge(attempt, 1, Integer::sum);
                        }
                        case "PublicationOutcomeUnknownEvent" -> {
                            String step = stepOfAttempt.getOrDefault(attempt, publication + "/post");
                            boolean interruptedOutcome = "INTERRUPTED".equals(payload.path("cause").asText());
                            if (interruptedOutcome) {
                                interruptedPerAttempt.merge(attempt, 1, Integer::sum);
                            }
                            if (isUpload(step)) {
                                if (interruptedOutcome) {
                                    store.interruptedUploads++;
                                    uploadPending.put(step, true);
                                }
                            } else {
                                unknownPending.put(step, true);
                                if (interruptedOutcome) {
                                    store.interrupted++;
                                    store.interruptedBySteps.merge(step.substring(step.indexOf('/') + 1), 1,
                                            Integer::sum);
                                    interruptedPending.put(step, true);
                                }
                            }
                        }
                        case "PublicationResendDueEvent" -> resendDue.put(attempt, payload);
                        case "PublicationReconciledEvent" -> {
                            String result = payload.path("result").asText();
                            String step = stepOfAttempt.getOrDefault(attempt, publication + "/post");
                            if (!"UNKNOWN".equals(result)) {
                                conclusivePerAttempt.merge(attempt, 1, Integer::sum);
                                if (Boolean.TRUE.equals(interruptedPending.put(step, false))) {
                                    store.interruptedReconciled++;
                                }
                            }
                            if ("NOT_FOUND".equals(result)) {
                                unknownPending.put(step, false);
                            }
                        }
                        default -> { }
                    }
                }
            }
        }
        store.initialTwice = twice(initial);
        store.attemptNumberTwice = twice(attemptNumbers);
        store.interruptedTwice = twice(interruptedPerAttempt);
        store.conclusiveTwice = twice(conclusivePerAttempt);
        return store;
    }

    /**
     * Whether an attempt after an unknown outcome is the allowed exception: trigger
     * {@code RESEND_SAME_KEY}, made due as this attempt for a {@code client_id} or {@code provider_key}
     * connection, carrying the key of the unknown attempt.
     */
    private static boolean sameKeyResend(JsonNode attempted, String unknownKey, JsonNode due) {
        String key = attempted.path("idempotencyKey").asText(null);
        String safety = due == null ? "" : due.path("retrySafety").asText().toLowerCase(Locale.ROOT);
        return "RESEND_SAME_KEY".equals(attempted.path("trigger").asText())
                && (safety.equals("client_id") || safety.equals("provider_key"))
                && key != null && key.equals(unknownKey) && key.equals(due.path("idempotencyKey").asText(null));
    }

    /**
     * The step an attempt makes, by its kind: each repeatable step before the post (an upload by its
     * image, a container once) apart; the step after the post; create, update, delete and a
     * channel's own post step (publishing a container) as the one post step.
     */
    private static String stepKey(JsonNode attempted) {
        String step = attempted.path("step").asText("");
        PublicationStep kind = kind(step);
        if (kind == null || kind.makesPost()) {
            return "post";
        }
        if (kind.preparesPost() && kind.isRepeatable()) {
            return REPEATED + step + ":" + attempted.path("mediaId");
        }
        return step;
    }

    /** The kind of a stored step name; null for none (the action's post step) or a kind not declared here. */
    private static PublicationStep kind(String step) {
        if (step.isEmpty()) {
            return null;
        }
        try {
            return PublicationStep.fromWireName(step);
        } catch (IllegalArgumentException undeclared) {
            return null;
        }
    }

    /** A repeatable step before the post: sent again after an unknown outcome, never read back. */
    private static boolean isUpload(String step) {
        return step.contains("/" + REPEATED);
    }

    private static final String REPEATED = "repeated:";

    private static int twice(Map<String, Integer> counts) {
        return (int) counts.values().stream().filter(n -> n > 1).count();
    }
}
