package io.herald.command.publication;

import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.IdempotencyKeys;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptDecision;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationNothingToChangeEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.PublicationSupersededEvent;
import io.herald.contracts.publication.ReconciliationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.axonframework.test.aggregate.FixtureConfiguration;

/**
 * The model of one entry's line that {@link EntryLineLife} drives: its operations with their
 * histories, the state each history gives the line (what the entry lines keep from the events),
 * and the turn that follows, written from docs/architecture.md#an-entrys-post-over-time rather than from the production classes.
 */
final class EntryLineModel {

    static final WorkspaceId WS = new WorkspaceId("acme");
    static final ChannelId CHANNEL = new ChannelId("fb-main");
    static final String ENTRY = "entry-7";
    static final ProviderRef POST = new ProviderRef("page-1_777", null);

    private EntryLineModel() {
    }

    /** One operation of the line, its history as the event store holds it, and what is due for it. */
    static final class Op {
        final PublicationId id;
        final PublicationAction action;
        final long version;
        final List<Object> history = new ArrayList<>();
        final TreeSet<Integer> due = new TreeSet<>();
        final Map<Integer, AttemptTrigger> triggers = new TreeMap<>();
        AttemptDecision licensed;
        /** A fixture per publication: one fixture holds one aggregate's identifier. */
        FixtureConfiguration<Publication> fixture;

        Op(PublicationAction action, long version) {
            this.id = IdempotencyKeys.publicationId(WS, ENTRY, version, CHANNEL, action);
            this.action = action;
            this.version = version;
        }

        String name() {
            return action.wireName() + " v" + version;
        }
    }

    enum State { OPEN, DONE, NOT_EXECUTED }

    static State state(Op op) {
        State state = State.OPEN;
        boolean postStep = true;
        for (Object event : op.history) {
            if (event instanceof PublicationAttemptedEvent a) {
                // a container made before the post is not the operation done
                postStep = a.step() == null || a.step().makesPost();
            } else if (event instanceof PublicationSucceededEvent && postStep) {
                state = State.DONE;
            } else if (event instanceof PublicationReconciledEvent r) {
                if (r.result() == ReconciliationResult.FOUND) {
                    state = State.DONE;
                } else if (r.result() == ReconciliationResult.NOT_FOUND && !op.action.actsOnPost()) {
                    state = State.NOT_EXECUTED;
                }
            } else if (event instanceof PublicationFailedEvent f && f.retryAt() == null
                    || event instanceof PublicationSupersededEvent
                    || event instanceof PublicationNothingToChangeEvent) {
                state = State.NOT_EXECUTED;
            }
        }
        return state;
    }

    static boolean hasPostToChange(List<Op> line) {
        boolean post = false;
        for (Op op : line) {
            if (!op.action.actsOnPost() && state(op) != State.NOT_EXECUTED) {
                post = true;
            } else if (op.action == PublicationAction.DELETE && state(op) == State.DONE) {
                post = false;
            }
        }
        return post;
    }

    /** The line's answer to "whose turn". */
    static final class Order implements EntryOrder {
        private final List<Op> line;

        Order(List<Op> line) {
            this.line = line;
        }

        @Override
        public Turn turnOf(PublicationId publicationId) {
            Op me = line.stream().filter(op -> op.id.equals(publicationId)).findFirst().orElseThrow();
            List<Op> earlier = line.subList(0, line.indexOf(me));
            for (Op op : earlier) {
                if (state(op) == State.OPEN) {
                    return new Wait(op.id);
                }
            }
            boolean post = false;
            long applied = 0;
            for (Op op : earlier) {
                State state = state(op);
                if (!op.action.actsOnPost() && state == State.DONE) {
                    post = true;
                    applied = op.version;
                } else if (op.action == PublicationAction.DELETE && state == State.DONE) {
                    post = false;
                } else if (op.action == PublicationAction.UPDATE && state == State.DONE) {
                    applied = Math.max(applied, op.version);
                }
            }
            if (!post) {
                return new NothingToChange("no post at this channel");
            }
            if (me.action == PublicationAction.UPDATE && me.version < applied) {
                return new Superseded(applied);
            }
            return new Go(POST);
        }

        @Override
        public boolean hasPostToChange(WorkspaceId workspace, String calendarEntryId, ChannelId channel) {
            return EntryLineModel.hasPostToChange(line);
        }

        @Override
        public boolean isInLine(PublicationId publicationId) {
            return line.stream().anyMatch(op -> op.id.equals(publicationId));
        }

        /** Operators' confirmations are not part of this model: every post was created by Herald. */
        @Override
        public boolean targetUnverified(WorkspaceId workspace, String calendarEntryId, ChannelId channel) {
            return false;
        }

        @Override
        public java.util.Optional<PublicationId> postHolder(WorkspaceId workspace, ChannelId channel,
                                                            io.herald.contracts.publication.ProviderRef ref,
                                                            PublicationId except) {
            return java.util.Optional.empty();
        }

        /** Intake's image check of an update is not part of this model. */
        @Override
        public java.util.Optional<PublicationId> postCreator(io.herald.contracts.id.WorkspaceId workspace,
                                                             String calendarEntryId,
                                                             io.herald.contracts.id.ChannelId channel) {
            return java.util.Optional.empty();
        }
    }
}
