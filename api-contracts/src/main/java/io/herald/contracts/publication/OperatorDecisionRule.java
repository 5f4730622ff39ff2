package io.herald.contracts.publication;

import static io.herald.contracts.publication.OperatorDecision.ABANDON;
import static io.herald.contracts.publication.OperatorDecision.CONFIRM_NOT_PUBLISHED;
import static io.herald.contracts.publication.OperatorDecision.CONFIRM_PUBLISHED;
import static io.herald.contracts.publication.OperatorDecision.CONFIRM_REMOVED;
import static io.herald.contracts.publication.OperatorDecision.REATTEMPT;
import static io.herald.contracts.publication.OperatorDecision.REPUBLISH;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Which operator decisions (docs/api.md#operators-and-auditors) a publication accepts now, by what
 * the decision is about: the one rule the publication aggregate enforces and the publication view
 * lists as {@code allowedDecisions}. Whether a decision's own input is valid (a post reference, a
 * confirmation read back) is checked where it is taken, not here.
 */
public final class OperatorDecisionRule {

    /** Where the first comment stands, as far as an operator's decision is concerned. */
    public enum Comment {
        /** No decision is about the comment. */
        NONE,
        /** The post stands; its comment failed or was confirmed not posted. */
        FAILED,
        /** The post stands; whether its comment was posted is unknown. */
        OUTCOME_UNKNOWN,
        /** The post stands on an operator's word alone; its comment, never run, waits for a readable confirmation. */
        WAITS_ON_UNVERIFIED_POST
    }

    private OperatorDecisionRule() {
    }

    /**
     * Every decision accepted now: a vanished post's own pair while that waits; the comment's while a
     * decision is about it; otherwise the post's.
     */
    public static Set<OperatorDecision> allowed(PublicationStatus status, boolean vanishPending, Comment comment,
                                                boolean postUnverified) {
        if (vanishPending) {
            return onVanishedPost();
        }
        return switch (comment) {
            case FAILED -> onComment(false);
            case OUTCOME_UNKNOWN -> onComment(true);
            case WAITS_ON_UNVERIFIED_POST -> union(onCommentOfUnverifiedPost(), onPost(status, postUnverified));
            case NONE -> onPost(status, postUnverified);
        };
    }

    /** A post read again after success and found gone, while that waits for a decision. */
    public static Set<OperatorDecision> onVanishedPost() {
        return Collections.unmodifiableSet(EnumSet.of(CONFIRM_REMOVED, REPUBLISH));
    }

    /** The post stands and its first comment failed or (outcomeUnknown) has an unknown outcome. */
    public static Set<OperatorDecision> onComment(boolean outcomeUnknown) {
        return Collections.unmodifiableSet(outcomeUnknown ? EnumSet.of(CONFIRM_PUBLISHED, CONFIRM_NOT_PUBLISHED, ABANDON)
                : EnumSet.of(CONFIRM_PUBLISHED, REATTEMPT, ABANDON));
    }

    /**
     * The post stands on an operator's word alone and its first comment waits for a confirmation
     * Herald can read: the comment may be given up (the post stays), never re-attempted.
     */
    public static Set<OperatorDecision> onCommentOfUnverifiedPost() {
        return Collections.unmodifiableSet(EnumSet.of(ABANDON));
    }

    /**
     * About the post, by the publication's status. A post confirmed without being read back
     * ({@code postUnverified}) may be confirmed again, with a reference the channel reads back.
     */
    public static Set<OperatorDecision> onPost(PublicationStatus status, boolean postUnverified) {
        return Collections.unmodifiableSet(switch (status) {
            case OUTCOME_UNKNOWN -> EnumSet.of(CONFIRM_PUBLISHED, CONFIRM_NOT_PUBLISHED, ABANDON);
            case NOT_EXECUTED, FAILED -> EnumSet.of(CONFIRM_PUBLISHED, REATTEMPT, ABANDON);
            case REQUESTED, RETRY_SCHEDULED, HELD -> EnumSet.of(ABANDON);
            case SUCCEEDED -> postUnverified ? EnumSet.of(CONFIRM_PUBLISHED) : EnumSet.noneOf(OperatorDecision.class);
            case ATTEMPTING, SUPERSEDED, ABANDONED -> EnumSet.noneOf(OperatorDecision.class);
        });
    }

    private static Set<OperatorDecision> union(Set<OperatorDecision> a, Set<OperatorDecision> b) {
        EnumSet<OperatorDecision> all = EnumSet.noneOf(OperatorDecision.class);
        all.addAll(a);
        all.addAll(b);
        return Collections.unmodifiableSet(all);
    }
}
