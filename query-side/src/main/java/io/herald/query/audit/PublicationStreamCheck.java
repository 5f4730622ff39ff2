package io.herald.query.audit;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.contracts.publication.PublicationStep;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Replays one publication's stream against rules 1–5 of docs/architecture.md#rules-an-auditor-can-check, independently of the aggregate
 * that wrote it: the aggregate refuses what breaks a rule, and this finds whatever got into the
 * store anyway (a bug, a hand-edited row, a second writer).
 *
 * <ol>
 *   <li>at most one attempt in flight, attempt numbers consecutive from 1;</li>
 *   <li>an attempt without a result is closed only by an outcome-unknown: never followed directly by
 *       a new attempt, a reconciliation or an abandon, and never left open long past its deadline;</li>
 *   <li>after an unknown outcome, the next attempt needs a NOT_FOUND reconciliation in between, but
 *       for the one exception (docs/architecture.md#retry-safety): a re-send of an unknown create with the
 *       same key ({@code RESEND_SAME_KEY}), made due by a {@code PublicationResendDueEvent} that
 *       names a {@code client_id} or {@code provider_key} connection, the {@code provider_key} one
 *       once per chain and before the recorded end of its window;</li>
 *   <li>nothing is attempted after success (a succeeded event or a FOUND reconciliation);</li>
 *   <li>results (succeeded, failed, outcome unknown) only for the attempt in flight.</li>
 * </ol>
 *
 * <p>Rules 3 and 4 hold per once-only step (docs/architecture.md#steps-and-step-kinds): the post, and its first comment,
 * each at most once unless a NOT_FOUND came between; uploads are repeatable but come before the
 * post, and the comment only after it. Attempts stored without a step created the post.
 */
public final class PublicationStreamCheck {

    /** How long after its deadline an attempt may stay open before the history counts it as lost. */
    public static final Duration DEADLINE_GRACE = Duration.ofMinutes(5);

    private final String publicationId;
    private final List<Breach> breaches = new ArrayList<>();
    private long events;
    private int lastAttemptNo;
    private Integer inFlight;
    private long inFlightSequence;
    private Instant inFlightExpiresAt;
    /** The latest post attempt's outcome is unknown and no NOT_FOUND has been recorded since. */
    private Integer unknownOutcomeOf;
    private boolean succeeded;
    private String action = "publish";
    private String lastStep;
    /** The latest attempt was an upload whose outcome is unknown: past the retry policy it ends FAILED. */
    private Integer unknownUploadOf;
    /** The same two facts for the first comment. */
    private Integer commentUnknownOf;
    private boolean commentSucceeded;
    /** The key the latest post attempt carried, and the one the attempt with the unknown outcome carried. */
    private String lastPostKey;
    private String unknownKey;
    /** The chain of same-key re-sends the latest post attempt belongs to: its first send, and how many followed. */
    private Instant chainStartedAt;
    private int chainResends;
    /** The re-send the history made due after the latest unknown create, if any. */
    private JsonNode resendDue;

    public PublicationStreamCheck(String publicationId) {
        this.publicationId = publicationId;
    }

    public String publicationId() {
        return publicationId;
    }

    public long events() {
        return events;
    }

    /** Takes the stream's next event (in sequence order). */
    public void accept(long sequence, String type, JsonNode payload) {
        events++;
        switch (type) {
            case "PublicationRequestedEvent" -> action = payload.path("action").asText("publish");
            case "PublicationAttemptedEvent" -> attempted(sequence, payload);
            case "PublicationSucceededEvent" -> result(sequence, payload, "success");
            case "PublicationFailedEvent" -> result(sequence, payload, "failure");
            case "PublicationOutcomeUnknownEvent" -> result(sequence, payload, "unknown outcome");
            case "PublicationReconciledEvent" -> reconciled(sequence, payload);
            case "PublicationResendDueEvent" -> resendDue = payload;
            case "PublicationAbandonedEvent" -> closedWithoutResult(sequence, "abandoned");
            case "PublicationHeldEvent" -> held(sequence, payload);
            default -> { }
        }
    }

    /**
     * Held for the connection's credentials: the refusal of an attempt is that attempt's result; a
     * hold before any call must not leave an attempt open.
     */
    private void held(long sequence, JsonNode payload) {
        if (payload.path("attemptNo").asInt() > 0) {
            result(sequence, payload, "credentials refusal");
        } else {
            closedWithoutResult(sequence, "held");
        }
    }

    /** The breaches found; {@code now} decides whether an attempt still open is overdue (rule 2). */
    public List<Breach> finish(Instant now) {
        List<Breach> found = new ArrayList<>(breaches);
        OpenAttempt open = openAttempt();
        if (open != null && now.isAfter(open.overdueAt())) {
            found.add(open.breach());
        }
        return List.copyOf(found);
    }

    /** The breaches the events themselves show, without asking whether an open attempt is overdue yet. */
    public List<Breach> breachesSoFar() {
        return List.copyOf(breaches);
    }

    /**
     * The attempt still open at the end of the stream, if it has a deadline: rule 2 counts it as lost
     * once {@code overdueAt} has passed, with the breach it would then be.
     */
    public OpenAttempt openAttempt() {
        if (inFlight == null || inFlightExpiresAt == null) {
            return null;
        }
        return new OpenAttempt(inFlightExpiresAt.plus(DEADLINE_GRACE), new Breach(publicationId, 2, inFlightSequence,
                "attempt " + inFlight + " has no result although its deadline " + inFlightExpiresAt
                        + " passed; an interrupted attempt must be recorded as outcome unknown"));
    }

    /** An attempt without a result yet, and the breach it becomes after {@code overdueAt}. */
    public record OpenAttempt(Instant overdueAt, Breach breach) {
    }

    private void attempted(long sequence, JsonNode payload) {
        int attemptNo = payload.path("attemptNo").asInt();
        String step = stepOf(payload);
        boolean comment = followsPost(step);
        if (comment) {
            if (!succeeded) {
                breach(4, sequence, "first comment attempt " + attemptNo + " started before the post existed");
            }
            if (commentSucceeded) {
                breach(4, sequence, "first comment attempt " + attemptNo + " started after the comment had"
                        + " succeeded: a second comment");
            }
            if (commentUnknownOf != null) {
                breach(3, sequence, "first comment attempt " + attemptNo + " started after the unknown outcome of"
                        + " comment attempt " + commentUnknownOf + " without a NOT_FOUND reconciliation in between");
            }
            commentUnknownOf = null;
        } else if (succeeded) {
            breach(4, sequence, step + " attempt " + attemptNo + " started after the publication had succeeded");
        }
        if (inFlight != null) {
            breach(1, sequence, "attempt " + attemptNo + " started while attempt " + inFlight + " was in flight");
            breach(2, sequence, "attempt " + inFlight + " had no result and was followed directly by attempt "
                    + attemptNo + "; an attempt without result is closed only by outcome unknown");
        }
        if (attemptNo != lastAttemptNo + 1) {
            breach(1, sequence, "attempt numbers must be consecutive: expected attempt " + (lastAttemptNo + 1)
                    + ", found attempt " + attemptNo);
        }
        if (unknownOutcomeOf != null && !comment && !repeatable(step)) {
            String notAllowed = sameKeyResendRefusal(payload, attemptNo);
            if (notAllowed != null) {
                breach(3, sequence, "attempt " + attemptNo + " started after the unknown outcome of attempt "
                        + unknownOutcomeOf + " without a NOT_FOUND reconciliation in between" + notAllowed);
            }
        }
        if (!comment && !repeatable(step)) {
            boolean resend = RESEND.equals(payload.path("trigger").asText());
            chainResends = resend ? chainResends + 1 : 0;
            if (!resend || chainStartedAt == null) {
                chainStartedAt = instant(payload.path("startedAt"));
            }
            lastPostKey = payload.path("idempotencyKey").asText(null);
            resendDue = null;
        }
        inFlight = attemptNo;
        unknownUploadOf = null;
        inFlightSequence = sequence;
        inFlightExpiresAt = instant(payload.path("expiresAt"));
        lastAttemptNo = Math.max(lastAttemptNo, attemptNo);
        lastStep = step;
        if (!comment && !repeatable(step)) {
            // reported once; the new attempt is what later events refer to
            unknownOutcomeOf = null;
        }
    }

    /**
     * Null when attempt {@code attemptNo} is a re-send the exception allows; otherwise why not, as
     * the end of the breach's sentence (empty for an attempt that does not claim to be one).
     */
    private String sameKeyResendRefusal(JsonNode attempted, int attemptNo) {
        if (!RESEND.equals(attempted.path("trigger").asText())) {
            return "";
        }
        if (resendDue == null || resendDue.path("unknownAttemptNo").asInt() != unknownOutcomeOf
                || resendDue.path("attemptNo").asInt() != attemptNo) {
            return "; it claims to be a re-send with the same key, but no re-send of attempt " + unknownOutcomeOf
                    + " was made due";
        }
        String safety = resendDue.path("retrySafety").asText();
        if (!CLIENT_ID.equals(safety) && !PROVIDER_KEY.equals(safety)) {
            return "; a re-send without reading back is allowed only on client_id or provider_key connections,"
                    + " and this one is " + safety;
        }
        String key = attempted.path("idempotencyKey").asText(null);
        if (key == null || !key.equals(unknownKey) || !key.equals(resendDue.path("idempotencyKey").asText(null))) {
            return "; a re-send must carry the key of the attempt it repeats (" + unknownKey + "), but carried "
                    + key;
        }
        if (PROVIDER_KEY.equals(safety)) {
            if (chainResends > 0) {
                return "; a provider_key connection allows one re-send, and attempt " + unknownOutcomeOf
                        + " was a re-send already";
            }
            Instant originalStartedAt = instant(resendDue.path("originalStartedAt"));
            if (originalStartedAt == null || !originalStartedAt.equals(chainStartedAt)) {
                return "; the window of a provider_key re-send counts from the first send (" + chainStartedAt
                        + "), but the history counted it from " + originalStartedAt;
            }
            Instant until = instant(resendDue.path("resendUntil"));
            Instant startedAt = instant(attempted.path("startedAt"));
            if (until == null || startedAt == null || !startedAt.isBefore(until)) {
                return "; a provider_key re-send must start inside the provider's window (until " + until
                        + "), and started at " + startedAt;
            }
        }
        return null;
    }

    private static final String RESEND = "RESEND_SAME_KEY";
    private static final String CLIENT_ID = "client_id";
    private static final String PROVIDER_KEY = "provider_key";

    /** A step after the post (the first comment): once only on its own, after the post. */
    private static boolean followsPost(String step) {
        PublicationStep kind = kindOf(step);
        return kind != null && kind.followsPost();
    }

    /** A repeatable step (an upload): sent again after an unknown outcome, no read-back needed. */
    private static boolean repeatable(String step) {
        PublicationStep kind = kindOf(step);
        return kind != null && kind.isRepeatable();
    }

    /** The kind of a stored step name; null (checked as a post) for one no loaded plug-in declares. */
    private static PublicationStep kindOf(String step) {
        try {
            return PublicationStep.fromWireName(step);
        } catch (IllegalArgumentException unknown) {
            return null;
        }
    }

    private String stepOf(JsonNode attempted) {
        String step = attempted.path("step").asText(null);
        if (step != null && !step.isEmpty() && !"null".equals(step)) {
            return step;
        }
        return switch (action) {
            case "update" -> "update_post";
            case "delete" -> "delete_post";
            default -> "create_post";
        };
    }

    private void result(long sequence, JsonNode payload, String what) {
        int attemptNo = payload.path("attemptNo").asInt();
        if (inFlight == null && "failure".equals(what) && Integer.valueOf(attemptNo).equals(unknownUploadOf)) {
            // an upload whose outcome stayed unknown as often as the retry policy allows fails, as its end
            unknownUploadOf = null;
            return;
        }
        if (inFlight == null || inFlight != attemptNo) {
            breach(5, sequence, what + " recorded for attempt " + attemptNo + ", but "
                    + (inFlight == null ? "no attempt was in flight" : "attempt " + inFlight + " was in flight"));
            return;
        }
        inFlight = null;
        if (repeatable(lastStep)) {
            // repeatable: an unknown upload is simply uploaded again
            unknownUploadOf = "unknown outcome".equals(what) ? attemptNo : null;
            return;
        }
        boolean comment = followsPost(lastStep);
        switch (what) {
            case "success" -> {
                if (comment) {
                    commentSucceeded = true;
                } else {
                    succeeded = true;
                }
            }
            case "unknown outcome" -> {
                if (comment) {
                    commentUnknownOf = attemptNo;
                } else {
                    unknownOutcomeOf = attemptNo;
                    unknownKey = lastPostKey;
                }
            }
            default -> { }
        }
    }

    private void reconciled(long sequence, JsonNode payload) {
        int attemptNo = payload.path("attemptNo").asInt();
        if (inFlight != null && inFlight == attemptNo
                && "PROVIDER_DUPLICATE_SIGNAL".equals(payload.path("source").asText())) {
            // the provider refused the attempt as a duplicate: that refusal is the attempt's answer
            inFlight = null;
        }
        if (inFlight != null) {
            closedWithoutResult(sequence, "reconciled");
        }
        if (attemptNo != lastAttemptNo) {
            // a read-back about an older attempt changes nothing (rule 5 for reconciliations)
            return;
        }
        boolean comment = followsPost(lastStep);
        switch (payload.path("result").asText()) {
            case "FOUND" -> {
                if (comment) {
                    commentSucceeded = true;
                    commentUnknownOf = null;
                } else {
                    succeeded = true;
                    unknownOutcomeOf = null;
                }
            }
            case "NOT_FOUND" -> {
                if (comment) {
                    commentUnknownOf = null;
                } else {
                    unknownOutcomeOf = null;
                }
            }
            default -> { }
        }
    }

    private void closedWithoutResult(long sequence, String how) {
        if (inFlight == null) {
            return;
        }
        breach(2, sequence, "attempt " + inFlight + " had no result when the publication was " + how
                + "; an attempt without result is closed only by outcome unknown");
        inFlight = null;
    }

    private void breach(int rule, long sequence, String detail) {
        breaches.add(new Breach(publicationId, rule, sequence, detail));
    }

    private static Instant instant(JsonNode value) {
        if (value == null || !value.isTextual()) {
            return null;
        }
        try {
            return Instant.parse(value.asText());
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
