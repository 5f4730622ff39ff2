package io.herald.query.stats;

import static io.herald.query.publication.PublicationEvents.T0;
import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.ReconciliationSource;
import io.herald.query.ReadStore;
import io.herald.query.publication.PublicationEvents;
import io.herald.query.publication.PublicationViewProjection;
import io.herald.query.publication.PublicationViewRepository;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

class PublicationStatsIT {

    private static final String WS = "acme";
    private static final Instant NOW = T0.plus(Duration.ofHours(5)).plusSeconds(600);

    private final ReadStore store = ReadStore.shared();
    private final StatementCounter counter = new StatementCounter(store.jdbc().getJdbcTemplate().getDataSource());
    private final PublicationStatsRepository stats =
            new PublicationStatsRepository(new NamedParameterJdbcTemplate(counter.dataSource()));
    private final PublicationStatsRecorder recorder = new PublicationStatsRecorder(stats);
    private final PublicationStatsQueryHandler handler = new PublicationStatsQueryHandler(stats);
    private PublicationViewProjection projection;
    private PublicationEvents events;

    @BeforeEach
    void emptyTables() {
        store.clear();
        recorder.reset();
        projection = new PublicationViewProjection(new PublicationViewRepository(store.jdbc(), store.objectMapper()),
                List.of(recorder));
        events = new PublicationEvents(projection);
    }

    @Test
    void countsOutcomesPerHourOpenCasesAndAnswerTimesPerChannel() {
        Instant hour0 = T0;
        // hour 0: one succeeds after 300 ms; one fails for good after 80 ms and waits for a decision
        PublicationId ok = events.requested(WS, "e-ok", "fb-main", hour0);
        events.attempted(ok, WS, 1, AttemptTrigger.INITIAL, hour0.plusSeconds(10));
        events.succeeded(ok, WS, 1, null, hour0.plusSeconds(10).plusMillis(300));
        PublicationId bad = events.requested(WS, "e-bad", "fb-main", hour0);
        events.attempted(bad, WS, 1, AttemptTrigger.INITIAL, hour0.plusSeconds(20));
        events.failed(bad, WS, 1, FailureKind.REJECTED, "190", "token", null, hour0.plusSeconds(20).plusMillis(80));
        // hour 2: one times out (no answer time), an operator settles the failed one in hour 3
        Instant hour2 = T0.plus(Duration.ofHours(2));
        PublicationId unknown = events.requested(WS, "e-unknown", "fb-main", hour2);
        events.attempted(unknown, WS, 1, AttemptTrigger.INITIAL, hour2.plusSeconds(5));
        events.outcomeUnknown(unknown, WS, 1, hour2.plusSeconds(35));
        events.reconciled(unknown, WS, 1, ReconciliationResult.UNKNOWN, ReconciliationSource.AUTOMATIC, null,
                "read-back unavailable", hour2.plusSeconds(40));
        events.abandoned(bad, WS, T0.plus(Duration.ofHours(3)));
        // another workspace counts only there
        PublicationId other = events.requested("globex", "e-other", "fb-main", hour0);
        events.attempted(other, "globex", 1, AttemptTrigger.INITIAL, hour0.plusSeconds(1));
        events.succeeded(other, "globex", 1, null, hour0.plusSeconds(2));

        PublicationStats answer = handler.handle(new FindPublicationStatsQuery(WorkspaceId.of(WS),
                StatsWindow.LAST_24_HOURS, NOW));

        assertThat(answer.hours()).hasSize(24);
        assertThat(answer.to()).isEqualTo(T0.plus(Duration.ofHours(6)));
        assertThat(answer.from()).isEqualTo(answer.to().minus(Duration.ofHours(24)));
        assertThat(hour(answer, T0)).isEqualTo(new PublicationStats.Hour(T0, 1, 1, 0, 0, 1));
        assertThat(hour(answer, T0.plus(Duration.ofHours(1)))).isEqualTo(
                new PublicationStats.Hour(T0.plus(Duration.ofHours(1)), 0, 0, 0, 0, 1));
        assertThat(hour(answer, hour2)).isEqualTo(new PublicationStats.Hour(hour2, 0, 0, 1, 0, 2));
        assertThat(hour(answer, T0.plus(Duration.ofHours(3))).openCases()).isEqualTo(1);
        assertThat(answer.hours().get(23).openCases()).as("the current hour").isEqualTo(1);
        assertThat(answer.answerTimes()).singleElement().satisfies(channel -> {
            assertThat(channel.channelId()).isEqualTo("fb-main");
            assertThat(channel.answers()).as("the timeout has no answer time").isEqualTo(2);
            assertThat(channel.medianMs()).isBetween(80L, 88L);
            assertThat(channel.p95Ms()).isBetween(300L, 330L);
        });
    }

    @Test
    void casesOpenedBeforeTheWindowStillCountAsOpenInIt() {
        PublicationId old = events.requested(WS, "e-old", "fb-main", T0.minus(Duration.ofDays(3)));
        events.attempted(old, WS, 1, AttemptTrigger.INITIAL, T0.minus(Duration.ofDays(3)));
        events.outcomeUnknown(old, WS, 1, T0.minus(Duration.ofDays(3)).plusSeconds(30));
        events.reconciled(old, WS, 1, ReconciliationResult.UNKNOWN, ReconciliationSource.AUTOMATIC, null,
                "read-back unavailable", T0.minus(Duration.ofDays(3)).plusSeconds(40));

        PublicationStats answer = handler.handle(new FindPublicationStatsQuery(WorkspaceId.of(WS),
                StatsWindow.LAST_24_HOURS, NOW));

        assertThat(answer.hours()).allSatisfy(h -> assertThat(h.openCases()).isEqualTo(1));
        assertThat(answer.hours()).allSatisfy(h -> assertThat(h.outcomeUnknown()).isZero());
        assertThat(handler.handle(new FindPublicationStatsQuery(WorkspaceId.of(WS), StatsWindow.LAST_7_DAYS, NOW))
                .hours()).hasSize(168).anySatisfy(h -> assertThat(h.outcomeUnknown()).isEqualTo(1));
    }

    @Test
    void aRedeliveredEventCountsNothingAndAReadBackClosesTheCase() {
        PublicationId id = events.requested(WS, "e-1", "fb-main", T0);
        events.attempted(id, WS, 1, AttemptTrigger.INITIAL, T0.plusSeconds(1));
        events.outcomeUnknown(id, WS, 1, T0.plusSeconds(31));
        events.reconciled(id, WS, 1, ReconciliationResult.UNKNOWN, ReconciliationSource.AUTOMATIC, null,
                "read-back unavailable", T0.plusSeconds(40));
        events.reconciled(id, WS, 1, ReconciliationResult.FOUND, ReconciliationSource.OPERATOR, null, "found",
                T0.plusSeconds(60));
        events.redeliver(events.delivered());

        PublicationStats.Hour first = hour(handler.handle(new FindPublicationStatsQuery(WorkspaceId.of(WS),
                StatsWindow.LAST_24_HOURS, NOW)), T0);

        assertThat(first.outcomeUnknown()).isEqualTo(1);
        assertThat(first.succeeded()).as("the read-back found the post").isEqualTo(1);
        assertThat(first.openCases()).isZero();
        // SUCCEEDED, OUTCOME_UNKNOWN, CASE_OPENED and CASE_CLOSED of hour 0
        assertThat(store.count("publication_hour_stats")).isEqualTo(4);
    }

    /**
     * The overview's cost per page view is the statements it sends: counted at the JDBC driver, it
     * is the same for 3 publications and for 300 (the tables grow with hours, not publications).
     */
    @Test
    void theOverviewSendsTheSameStatementsHoweverManyPublicationsExist() {
        seed(3);
        int few = statementsOfOnePageView();
        seed(297);
        int many = statementsOfOnePageView();

        assertThat(few).isEqualTo(2);
        assertThat(many).isEqualTo(few);
        assertThat(handler.handle(new FindPublicationStatsQuery(WorkspaceId.of(WS), StatsWindow.LAST_24_HOURS, NOW))
                .hours().stream().mapToLong(PublicationStats.Hour::succeeded).sum()).isEqualTo(300);
    }

    private int statementsOfOnePageView() {
        counter.reset();
        handler.handle(new FindPublicationStatsQuery(WorkspaceId.of(WS), StatsWindow.LAST_24_HOURS, NOW));
        handler.handle(new FindPublicationStatsQuery(WorkspaceId.of(WS), StatsWindow.LAST_7_DAYS, NOW));
        return counter.statements() / 2;
    }

    private void seed(int publications) {
        for (int i = 0; i < publications; i++) {
            Instant at = T0.plus(Duration.ofMinutes(i % 300));
            PublicationId id = events.requested(WS, "seed-" + System.nanoTime() + "-" + i, "fb-main", at);
            events.attempted(id, WS, 1, AttemptTrigger.INITIAL, at.plusSeconds(1));
            events.succeeded(id, WS, 1, null, at.plusSeconds(1).plusMillis(100 + i));
        }
    }

    private static PublicationStats.Hour hour(PublicationStats stats, Instant hour) {
        return stats.hours().stream().filter(h -> h.hour().equals(hour)).findFirst().orElseThrow();
    }
}
