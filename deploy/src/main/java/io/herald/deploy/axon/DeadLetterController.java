package io.herald.deploy.axon;

import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.Operation;
import io.herald.command.publishing.PublicationTimers;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * What failed every time and waits for someone (system key): the projections' dead letters, and
 * the publications' timer rows that keep firing without effect. Counts and the oldest 100 of each.
 */
@RestController
class DeadLetterController {

    private static final int LIST = 100;

    private final JdbcTemplate jdbc;
    private final PublicationTimers timers;

    DeadLetterController(JdbcTemplate jdbc, PublicationTimers timers) {
        this.jdbc = jdbc;
        this.timers = timers;
    }

    /** @param sequenceIdentifier what the letter's sequence follows: the publication (or channel) id */
    record DeadLetter(String processingGroup, String eventType, String sequenceIdentifier, String cause,
                      String enqueuedAt) {
    }

    @Schema(name = "DeadLetterReport")
    record Answer(long deadLetterCount, List<DeadLetter> deadLetters, long stuckTimerCount,
                  List<PublicationTimers.StuckTimer> stuckTimers, Instant checkedAt) {
    }

    @Operation(description = "Lists the events a handler could not process (dead letters) and the timers that keep "
            + "firing without effect, so an operator can see what is stuck. System key only.")
    @GetMapping("/api/v1/admin/dead-letters")
    Answer deadLetters() {
        List<DeadLetter> letters = jdbc.query("""
                SELECT processing_group, payload_type, sequence_identifier,
                       coalesce(cause_type, '') || ': ' || coalesce(cause_message, ''), enqueued_at
                  FROM dead_letter_entry ORDER BY enqueued_at LIMIT ?""",
                (rs, n) -> new DeadLetter(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5)), LIST);
        Map<String, Object> counts = jdbc.queryForMap("""
                SELECT (SELECT count(*) FROM dead_letter_entry) AS letters,
                       (SELECT count(*) FROM publication_timer WHERE fires >= ?) AS stuck""",
                PublicationTimers.STUCK_AFTER_FIRES);
        return new Answer(((Number) counts.get("letters")).longValue(), letters,
                ((Number) counts.get("stuck")).longValue(), timers.stuck(LIST), Instant.now());
    }
}
