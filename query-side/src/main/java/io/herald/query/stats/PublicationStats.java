package io.herald.query.stats;

import io.swagger.v3.oas.annotations.media.Schema;
import io.herald.contracts.id.WorkspaceId;
import java.time.Instant;
import java.util.List;

/**
 * The console's overview of a window: one entry per hour (oldest first, the current hour last)
 * and the providers' answer times per channel over the whole window.
 *
 * @param from the start of the oldest hour
 */
public record PublicationStats(WorkspaceId workspaceId, String window, Instant from, Instant to,
                               List<Hour> hours, List<ChannelAnswerTimes> answerTimes) {

    /**
     * What happened in one hour: how many publications reached each outcome, and how many decision
     * cases were open at its end.
     */
    @Schema(name = "PublicationStatsHour")
    public record Hour(Instant hour, long succeeded, long failed, long outcomeUnknown, long held, long openCases) {
    }

    /**
     * A channel's answer times (ms); a percentile is the upper bound of its histogram bucket, at
     * most 10 % above the exact value.
     */
    public record ChannelAnswerTimes(String channelId, long answers, Long medianMs, Long p95Ms) {
    }
}
