package io.herald.query.counts;

import io.herald.contracts.publication.PublicationStatus;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.axonframework.queryhandling.QueryHandler;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Answers {@link FindPublicationCountsQuery} from the workspace's rows of {@code publication_counts}
 * (a few per channel and status, whatever the number of publications), which the publication view's
 * projection keeps in step with the view.
 */
@Component
public class PublicationCountsQueryHandler {

    private final NamedParameterJdbcTemplate jdbc;

    public PublicationCountsQueryHandler(NamedParameterJdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @QueryHandler
    public PublicationCounts handle(FindPublicationCountsQuery query) {
        Map<PublicationStatus, Long> byStatus = new EnumMap<>(PublicationStatus.class);
        for (PublicationStatus status : PublicationStatus.values()) {
            byStatus.put(status, 0L);
        }
        Map<String, Tally> byChannel = new LinkedHashMap<>();
        long[] total = {0};
        long[] needsDecision = {0};
        jdbc.query("""
                        SELECT channel_id, status, sum(publications) AS publications, sum(waiting) AS waiting
                        FROM publication_counts WHERE workspace_id = :workspace
                        GROUP BY channel_id, status HAVING sum(publications) <> 0
                        ORDER BY channel_id, status""",
                new MapSqlParameterSource("workspace", query.workspaceId().value()),
                rs -> {
                    PublicationStatus status = PublicationStatus.valueOf(rs.getString("status"));
                    long publications = rs.getLong("publications");
                    long waiting = rs.getLong("waiting");
                    byStatus.merge(status, publications, Long::sum);
                    byChannel.computeIfAbsent(rs.getString("channel_id"), c -> new Tally()).add(status, publications, waiting);
                    total[0] += publications;
                    needsDecision[0] += waiting;
                });
        Map<String, PublicationCounts.ChannelCounts> channels = new LinkedHashMap<>();
        byChannel.forEach((channel, tally) -> channels.put(channel, tally.counts()));
        return new PublicationCounts(query.workspaceId(), total[0], needsDecision[0],
                Collections.unmodifiableMap(byStatus), Collections.unmodifiableMap(channels));
    }

    private static final class Tally {
        private final Map<PublicationStatus, Long> byStatus = new EnumMap<>(PublicationStatus.class);
        private long total;
        private long needsDecision;

        void add(PublicationStatus status, long publications, long waiting) {
            byStatus.merge(status, publications, Long::sum);
            total += publications;
            needsDecision += waiting;
        }

        PublicationCounts.ChannelCounts counts() {
            return new PublicationCounts.ChannelCounts(total, needsDecision, Collections.unmodifiableMap(byStatus));
        }
    }
}
