package io.herald.query.audit;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks the rules across the operations of one entry at one channel (docs/architecture.md#an-entrys-post-over-time) on the stored histories, one stream after another: no update is applied to a post
 * after one with a higher content version ({@value #UPDATE_ORDER}), and no update or delete of a
 * post is attempted after a delete of it succeeded ({@value #AFTER_DELETE}). Order is store order.
 */
final class EntryLineCheck {

    /** Rule numbers after rules 1–5 of docs/architecture.md#rules-an-auditor-can-check, for the cross-stream rules. */
    static final int UPDATE_ORDER = 8;
    static final int AFTER_DELETE = 9;

    private record Operation(String publicationId, String workspaceId, String line, String action, long version) {
    }

    private record Step(long position, long sequence, String publicationId) {
    }

    private final Map<String, Operation> operations = new HashMap<>();
    private final Map<String, String> targets = new HashMap<>();
    private final List<Step> applied = new ArrayList<>();
    private final List<Step> attempts = new ArrayList<>();

    void accept(StoredEvent event) {
        JsonNode p = event.payload();
        String id = event.aggregateId();
        switch (event.type()) {
            case "PublicationRequestedEvent" -> {
                String line = lineOf(event);
                if (line != null) {
                    operations.put(id, new Operation(id, p.path("workspaceId").asText(), line, p.path("action").asText(),
                            p.path("contentVersion").asLong()));
                }
            }
            case "PublicationTargetedEvent" -> targets.put(id, p.path("target").path("id").asText());
            case "PublicationAttemptedEvent" -> attempts.add(new Step(event.position(), event.sequence(), id));
            case "PublicationSucceededEvent" -> applied.add(new Step(event.position(), event.sequence(), id));
            case "PublicationReconciledEvent" -> {
                if ("FOUND".equals(p.path("result").asText())) {
                    applied.add(new Step(event.position(), event.sequence(), id));
                }
            }
            default -> { }
        }
    }

    /**
     * The entry line (workspace, calendar entry, channel) an update or delete request acts on; null
     * for any other event: only updates and deletes take part in these rules.
     */
    static String lineOf(StoredEvent event) {
        JsonNode p = event.payload();
        String action = p.path("action").asText();
        if (!"PublicationRequestedEvent".equals(event.type()) || !(action.equals("update") || action.equals("delete"))) {
            return null;
        }
        return p.path("workspaceId").asText() + "/" + p.path("calendarEntryId").asText() + "/"
                + p.path("channelId").asText();
    }

    List<Breach> finish() {
        List<Breach> breaches = new ArrayList<>();
        Map<String, Long> highestApplied = new HashMap<>();
        Map<String, Long> deletedAt = new HashMap<>();
        applied.sort(Comparator.comparingLong(Step::position));
        for (Step step : applied) {
            String post = postOf(step.publicationId());
            if (post == null) {
                continue;
            }
            Operation op = operations.get(step.publicationId());
            if (op.action().equals("delete")) {
                deletedAt.putIfAbsent(post, step.position());
                continue;
            }
            Long highest = highestApplied.get(post);
            if (highest != null && op.version() < highest) {
                breaches.add(new Breach(op.publicationId(), UPDATE_ORDER, step.sequence(), "update to version "
                        + op.version() + " was applied after version " + highest + " of the same post"));
            }
            highestApplied.merge(post, op.version(), Math::max);
        }
        for (Step attempt : attempts) {
            String post = postOf(attempt.publicationId());
            Long deleted = post == null ? null : deletedAt.get(post);
            if (deleted != null && attempt.position() > deleted) {
                Operation op = operations.get(attempt.publicationId());
                breaches.add(new Breach(op.publicationId(), AFTER_DELETE, attempt.sequence(), op.action()
                        + " of post " + targets.get(op.publicationId()) + " was attempted after its delete succeeded"));
            }
        }
        return breaches;
    }

    /** The workspace of an update or delete this check has seen the request of; null for any other. */
    String workspaceOf(String publicationId) {
        Operation op = operations.get(publicationId);
        return op == null ? null : op.workspaceId();
    }

    /** The post an update or delete acted on, per entry line; null for anything else. */
    private String postOf(String publicationId) {
        Operation op = operations.get(publicationId);
        String target = targets.get(publicationId);
        return op == null || target == null ? null : op.line() + "#" + target;
    }
}
