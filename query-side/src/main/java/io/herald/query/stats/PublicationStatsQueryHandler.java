package io.herald.query.stats;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.stereotype.Component;

/** Answers {@link FindPublicationStatsQuery} from the hour buckets, filling the hours nothing happened in. */
@Component
public class PublicationStatsQueryHandler {

    private final PublicationStatsRepository repository;

    public PublicationStatsQueryHandler(PublicationStatsRepository repository) {
        this.repository = repository;
    }

    @QueryHandler
    public PublicationStats handle(FindPublicationStatsQuery query) {
        Instant current = PublicationStatsRecorder.hourOf(query.now());
        Instant from = current.minus(query.window().hours() - 1L, ChronoUnit.HOURS);
        PublicationStatsRepository.Window window = repository.read(query.workspaceId().value(), from);
        List<PublicationStats.Hour> hours = new ArrayList<>(query.window().hours());
        long open = window.openBefore();
        for (Instant hour = from; !hour.isAfter(current); hour = hour.plus(1, ChronoUnit.HOURS)) {
            Map<String, Long> counts = window.hours().getOrDefault(hour, Map.of());
            open += counts.getOrDefault(PublicationStatsRecorder.CASE_OPENED, 0L)
                    - counts.getOrDefault(PublicationStatsRecorder.CASE_CLOSED, 0L);
            hours.add(new PublicationStats.Hour(hour, counts.getOrDefault("SUCCEEDED", 0L),
                    counts.getOrDefault("FAILED", 0L), counts.getOrDefault("OUTCOME_UNKNOWN", 0L),
                    counts.getOrDefault("HELD", 0L), open));
        }
        List<PublicationStats.ChannelAnswerTimes> answerTimes = window.answers().entrySet().stream()
                .sorted(Map.Entry.comparingByKey(Comparator.naturalOrder()))
                .map(e -> new PublicationStats.ChannelAnswerTimes(e.getKey(), e.getValue().total(),
                        e.getValue().percentileMillis(0.5), e.getValue().percentileMillis(0.95)))
                .toList();
        return new PublicationStats(query.workspaceId(), query.window().label(), from,
                current.plus(1, ChronoUnit.HOURS), List.copyOf(hours), answerTimes);
    }
}
