package io.herald.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.port.ReadBackOutcome;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.ReadBackLicence;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.RecordReconciliationCommand;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a read establishes, and when the next one is due: reconciliation's part of the read-back. */
class ReadBackRunnerTest {

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final ReadBackLicence LICENCE = new ReadBackLicence(PublicationId.of("pub_1"),
            WorkspaceId.of("acme"), new ChannelId("fb"), 2, PublicationAction.PUBLISH,
            new Content(null, "text", null), NOW.minusSeconds(60));

    private final ReadBackRunner runner = new ReadBackRunner((ws, ch) -> Optional.empty(), null,
            new ReconciliationProperties(Duration.ofSeconds(30), List.of(Duration.ofMinutes(2), Duration.ofMinutes(10))),
            Clock.fixed(NOW, ZoneOffset.UTC), new SimpleMeterRegistry());

    @Test
    void readsFollowTheScheduleThenTheOperatorDecides() {
        assertThat(runner.settleDelay()).isEqualTo(Duration.ofSeconds(30));
        assertThat(runner.delayAfterRead(1)).contains(Duration.ofMinutes(2));
        assertThat(runner.delayAfterRead(2)).contains(Duration.ofMinutes(10));
        assertThat(runner.delayAfterRead(3)).isEmpty();
        assertThat(runner.delayAfterRead(Integer.MAX_VALUE)).isEmpty();
    }

    @Test
    void eachFindingIsRecordedForTheAttemptItIsAbout() {
        ProviderRef post = new ProviderRef("page_1", null);
        assertThat(runner.toRecord(LICENCE, 1, new ReadBackOutcome.Found(post, "1 match"))).contains(
                new RecordReconciliationCommand(LICENCE.publicationId(), 2, ReconciliationResult.FOUND, post,
                        "1 match", NOW));
        assertThat(runner.toRecord(LICENCE, 2, new ReadBackOutcome.NotFound("window read"))).get()
                .extracting(RecordReconciliationCommand::result).isEqualTo(ReconciliationResult.NOT_FOUND);
        assertThat(runner.toRecord(LICENCE, 2, new ReadBackOutcome.Unknown("two matches"))).get()
                .extracting(RecordReconciliationCommand::detail).isEqualTo("read-back inconclusive: two matches");
    }

    @Test
    void anUnavailableReadIsRecordedOnceOnTheFirstRead() {
        assertThat(runner.toRecord(LICENCE, 1, new ReadBackOutcome.Unavailable("needs a Page token"))).get()
                .extracting(RecordReconciliationCommand::detail).isEqualTo("read-back unavailable: needs a Page token");
        assertThat(runner.toRecord(LICENCE, 2, new ReadBackOutcome.Unavailable("needs a Page token"))).isEmpty();
    }

    @Test
    void aChannelThatIsGoneCannotBeReadBack() {
        assertThat(runner.read(LICENCE).join()).isInstanceOf(ReadBackOutcome.Unavailable.class);
    }
}
