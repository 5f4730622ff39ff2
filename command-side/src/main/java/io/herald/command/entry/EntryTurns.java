package io.herald.command.entry;

import io.herald.command.entry.EntryOperation.State;
import io.herald.command.publication.EntryOrder.Go;
import io.herald.command.publication.EntryOrder.NothingToChange;
import io.herald.command.publication.EntryOrder.Superseded;
import io.herald.command.publication.EntryOrder.Turn;
import io.herald.command.publication.EntryOrder.Unverified;
import io.herald.command.publication.EntryOrder.Wait;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.PublicationAction;
import java.util.List;
import java.util.Optional;

/**
 * The ordering rules of docs/architecture.md#an-entrys-post-over-time, over one line of operations in the
 * order accepted. Pure: the rows are read by {@link EntryLines}.
 */
final class EntryTurns {

    private EntryTurns() {
    }

    /** Whether an update or delete accepted now has a post to act on (now, or once a publish settles). */
    static boolean hasPostToChange(List<EntryOperation> line) {
        boolean post = false;
        for (EntryOperation op : line) {
            if (op.action().createsPost() && !op.is(State.NOT_EXECUTED)) {
                post = true;
            } else if (op.action() == PublicationAction.DELETE && op.is(State.DONE)) {
                post = false;
            }
        }
        return post;
    }

    /** The latest publish or draft that created (or will create) the entry's post; empty after a delete. */
    static Optional<PublicationId> postCreator(List<EntryOperation> line) {
        Optional<PublicationId> creator = Optional.empty();
        for (EntryOperation op : line) {
            if (op.action().createsPost() && !op.is(State.NOT_EXECUTED)) {
                creator = Optional.of(op.publicationId());
            } else if (op.action() == PublicationAction.DELETE && op.is(State.DONE)) {
                creator = Optional.empty();
            }
        }
        return creator;
    }

    /** Whether the post an update or delete accepted now acts on was named by an operator and not read back. */
    static boolean targetUnverified(List<EntryOperation> line) {
        EntryOperation creator = null;
        for (EntryOperation op : line) {
            if (op.action().createsPost() && !op.is(State.NOT_EXECUTED)) {
                creator = op;
            } else if (op.action() == PublicationAction.DELETE && op.is(State.DONE)) {
                creator = null;
            }
        }
        return creator != null && creator.refUnverified();
    }

    /** The turn of {@code self}, an update or delete in {@code line}. */
    static Turn turnOf(List<EntryOperation> line, PublicationId self) {
        int at = indexOf(line, self);
        EntryOperation me = line.get(at);
        List<EntryOperation> earlier = line.subList(0, at);
        Optional<EntryOperation> open = earlier.stream().filter(op -> op.is(State.OPEN)).findFirst();
        if (open.isPresent()) {
            return new Wait(open.get().publicationId());
        }
        int targetAt = -1;
        for (int i = earlier.size() - 1; i >= 0 && targetAt < 0; i--) {
            EntryOperation op = earlier.get(i);
            if (op.action().createsPost() && op.is(State.DONE) && op.ref() != null) {
                targetAt = i;
            }
        }
        if (targetAt < 0) {
            return new NothingToChange("the entry has no post at this channel: its publish never executed");
        }
        EntryOperation target = earlier.get(targetAt);
        if (target.refUnverified()) {
            return new Unverified(target.publicationId());
        }
        long applied = target.contentVersion();
        for (EntryOperation op : earlier.subList(targetAt + 1, earlier.size())) {
            if (op.action() == PublicationAction.DELETE && op.is(State.DONE)) {
                return new NothingToChange("the entry's post at this channel was deleted by " + op.publicationId());
            }
            if (op.action() == PublicationAction.UPDATE && op.is(State.DONE)) {
                applied = Math.max(applied, op.contentVersion());
            }
        }
        if (me.action() == PublicationAction.UPDATE && me.contentVersion() < applied) {
            return new Superseded(applied);
        }
        return new Go(target.ref());
    }

    private static int indexOf(List<EntryOperation> line, PublicationId self) {
        for (int i = 0; i < line.size(); i++) {
            if (line.get(i).publicationId().equals(self)) {
                return i;
            }
        }
        throw new IllegalStateException("publication " + self + " is not in its entry's line");
    }
}
