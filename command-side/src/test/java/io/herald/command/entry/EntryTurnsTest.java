package io.herald.command.entry;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.command.entry.EntryOperation.State;
import io.herald.command.publication.EntryOrder.Go;
import io.herald.command.publication.EntryOrder.NothingToChange;
import io.herald.command.publication.EntryOrder.Superseded;
import io.herald.command.publication.EntryOrder.Unverified;
import io.herald.command.publication.EntryOrder.Wait;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EntryTurnsTest {

    private static final ProviderRef POST = new ProviderRef("page_1", "https://www.facebook.com/page_1");
    private static final ProviderRef REPOST = new ProviderRef("page_2", "https://www.facebook.com/page_2");

    private final List<EntryOperation> line = new ArrayList<>();

    private PublicationId op(PublicationAction action, long version, State state, ProviderRef ref) {
        PublicationId id = new PublicationId("pub_" + line.size());
        line.add(new EntryOperation(line.size() + 1, id, action, version, state, ref, false));
        return id;
    }

    @Test
    void anUpdateOfAPostConfirmedWithoutReadBackWaitsForAConfirmationThatWasReadBack() {
        PublicationId publish = new PublicationId("pub_unverified");
        line.add(new EntryOperation(1, publish, PublicationAction.PUBLISH, 3, State.DONE, POST, true));
        PublicationId update = op(PublicationAction.UPDATE, 4, State.OPEN, null);
        assertThat(EntryTurns.turnOf(line, update)).isEqualTo(new Unverified(publish));
        assertThat(EntryTurns.targetUnverified(line)).isTrue();
        line.set(0, new EntryOperation(1, publish, PublicationAction.PUBLISH, 3, State.DONE, REPOST, false));
        assertThat(EntryTurns.turnOf(line, update)).isEqualTo(new Go(REPOST));
        assertThat(EntryTurns.targetUnverified(line)).isFalse();
    }

    @Test
    void aPostDeletedOrReplacedByAnotherPublishIsNoLongerTheUnverifiedTarget() {
        line.add(new EntryOperation(1, new PublicationId("pub_unverified"), PublicationAction.PUBLISH, 3, State.DONE,
                POST, true));
        op(PublicationAction.PUBLISH, 5, State.DONE, REPOST);
        assertThat(EntryTurns.targetUnverified(line)).isFalse();
    }

    @Test
    void anUpdateWaitsForAPublishThatHasNotSettled() {
        PublicationId publish = op(PublicationAction.PUBLISH, 3, State.OPEN, null);
        PublicationId update = op(PublicationAction.UPDATE, 4, State.OPEN, null);
        assertThat(EntryTurns.turnOf(line, update)).isEqualTo(new Wait(publish));
        assertThat(EntryTurns.hasPostToChange(line)).isTrue();
    }

    @Test
    void anUpdateActsOnThePostOfTheLatestSucceededPublish() {
        op(PublicationAction.PUBLISH, 3, State.DONE, POST);
        op(PublicationAction.DELETE, 3, State.DONE, POST);
        op(PublicationAction.PUBLISH, 5, State.DONE, REPOST);
        PublicationId update = op(PublicationAction.UPDATE, 6, State.OPEN, null);
        assertThat(EntryTurns.turnOf(line, update)).isEqualTo(new Go(REPOST));
    }

    @Test
    void laterOperationsDoNotHoldAnEarlierOne() {
        op(PublicationAction.PUBLISH, 3, State.DONE, POST);
        PublicationId first = op(PublicationAction.UPDATE, 4, State.OPEN, null);
        op(PublicationAction.UPDATE, 5, State.OPEN, null);
        assertThat(EntryTurns.turnOf(line, first)).isEqualTo(new Go(POST));
    }

    @Test
    void anUpdateAfterAPublishThatNeverExecutedHasNothingToChange() {
        op(PublicationAction.PUBLISH, 3, State.NOT_EXECUTED, null);
        PublicationId update = op(PublicationAction.UPDATE, 4, State.OPEN, null);
        assertThat(EntryTurns.turnOf(line, update)).isInstanceOf(NothingToChange.class);
        assertThat(EntryTurns.hasPostToChange(line.subList(0, 1))).isFalse();
    }

    @Test
    void anUpdateAcceptedBeforeADeleteSettledHasNothingToChangeAfterIt() {
        op(PublicationAction.PUBLISH, 3, State.DONE, POST);
        op(PublicationAction.DELETE, 3, State.DONE, POST);
        PublicationId update = op(PublicationAction.UPDATE, 4, State.OPEN, null);
        assertThat(EntryTurns.turnOf(line, update)).isInstanceOf(NothingToChange.class);
        assertThat(EntryTurns.hasPostToChange(line.subList(0, 2))).isFalse();
    }

    @Test
    void aFailedDeleteLeavesThePostToChange() {
        op(PublicationAction.PUBLISH, 3, State.DONE, POST);
        op(PublicationAction.DELETE, 3, State.NOT_EXECUTED, POST);
        PublicationId update = op(PublicationAction.UPDATE, 4, State.OPEN, null);
        assertThat(EntryTurns.turnOf(line, update)).isEqualTo(new Go(POST));
        assertThat(EntryTurns.hasPostToChange(line)).isTrue();
    }

    @Test
    void anUpdateOlderThanAnAppliedOneIsSuperseded() {
        op(PublicationAction.PUBLISH, 3, State.DONE, POST);
        op(PublicationAction.UPDATE, 7, State.DONE, POST);
        PublicationId older = op(PublicationAction.UPDATE, 5, State.OPEN, null);
        assertThat(EntryTurns.turnOf(line, older)).isEqualTo(new Superseded(7));
    }

    @Test
    void anUpdateOlderThanThePublishedVersionIsSuperseded() {
        op(PublicationAction.PUBLISH, 3, State.DONE, POST);
        PublicationId older = op(PublicationAction.UPDATE, 2, State.OPEN, null);
        assertThat(EntryTurns.turnOf(line, older)).isEqualTo(new Superseded(3));
    }

    @Test
    void anUpdateOfTheAppliedVersionOrNewerGoesAheadAndASupersededOneCountsForNothing() {
        op(PublicationAction.PUBLISH, 3, State.DONE, POST);
        op(PublicationAction.UPDATE, 9, State.NOT_EXECUTED, POST);
        PublicationId same = op(PublicationAction.UPDATE, 3, State.OPEN, null);
        assertThat(EntryTurns.turnOf(line, same)).isEqualTo(new Go(POST));
    }

    @Test
    void aDeleteIsNeverSupersededByVersion() {
        op(PublicationAction.PUBLISH, 3, State.DONE, POST);
        op(PublicationAction.UPDATE, 7, State.DONE, POST);
        PublicationId delete = op(PublicationAction.DELETE, 1, State.OPEN, null);
        assertThat(EntryTurns.turnOf(line, delete)).isEqualTo(new Go(POST));
    }

    @Test
    void anEntryNeverPublishedHasNoPostToChange() {
        assertThat(EntryTurns.hasPostToChange(line)).isFalse();
    }
}
