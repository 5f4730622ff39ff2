package io.herald.query.admin;

import io.swagger.v3.oas.annotations.Operation;
import io.herald.platform.projection.ProjectionRebuilder;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventProcessor;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Rebuilds a projection from the history (docs/api.md#operators-and-auditors) and shows how far every processor is.
 * The rebuild runs in the background ({@link ProjectionRebuilder}) while the rest of Herald keeps
 * running; until it is done the projection shows as replaying and not caught up.
 */
@RestController
public class ProjectionAdminController {

    private final EventProcessingConfiguration processing;
    private final ProjectionRebuilder rebuilder;

    public ProjectionAdminController(EventProcessingConfiguration processing, ProjectionRebuilder rebuilder) {
        this.processing = processing;
        this.rebuilder = rebuilder;
    }

    public record RebuildAccepted(String name, String status) {
    }

    @Operation(description = "Lists the event processors (projections) with the position each segment has reached, and "
            + "whether it is caught up, replaying or in error. System key only.")
    @GetMapping(path = "/api/v1/admin/projections", produces = MediaType.APPLICATION_JSON_VALUE)
    public List<ProcessorStatus> processors() {
        return processing.eventProcessors().values().stream()
                .map(this::status)
                .sorted(Comparator.comparing(ProcessorStatus::name))
                .toList();
    }

    @Operation(description = "Rebuilds a projection from the event store in the background; reads answer from the old "
            + "state until the rebuild has caught up. System key only.")
    @PostMapping(path = "/api/v1/admin/projections/{name}/rebuild", produces = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<RebuildAccepted> rebuild(@PathVariable("name") String name) {
        rebuilder.rebuild(name);
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(new RebuildAccepted(name, "rebuilding"));
    }

    private ProcessorStatus status(EventProcessor processor) {
        String name = processor.getName();
        return status(processor, rebuilder.isRebuilding(name), rebuilder.failure(name).orElse(null),
                rebuilder.progress(name).map(ProcessorStatus.Rebuild::of).orElse(null));
    }

    /** {@code rebuildFailure}: why this node's last rebuild of it failed, shown unless a segment is in error. */
    private static ProcessorStatus status(EventProcessor processor, boolean rebuilding, String rebuildFailure,
                                          ProcessorStatus.Rebuild rebuild) {
        if (!(processor instanceof StreamingEventProcessor streaming)) {
            return new ProcessorStatus(processor.getName(), false, processor.isRunning(), false, true, List.of(),
                    processor.isError() ? "in error" : null, null);
        }
        Map<Integer, EventTrackerStatus> segments = streaming.processingStatus();
        List<ProcessorStatus.Segment> rows = segments.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> segment(e.getKey(), e.getValue()))
                .toList();
        boolean replaying = rebuilding || rows.stream().anyMatch(ProcessorStatus.Segment::replaying);
        // a segment counts only once claimed; right after a start there may be none yet. A replaying
        // segment can be caught up: it is marked replaying until it handles an event newer than the reset.
        boolean caughtUp = !rebuilding && streaming.isRunning() && !rows.isEmpty()
                && rows.stream().allMatch(s -> s.caughtUp() && !s.errored());
        String error = segments.values().stream().filter(EventTrackerStatus::isErrorState)
                .map(s -> "segment " + s.getSegment().getSegmentId() + ": " + s.getError().getClass().getSimpleName())
                .findFirst().orElse(rebuildFailure);
        return new ProcessorStatus(streaming.getName(), streaming.supportsReset(), streaming.isRunning(), replaying,
                caughtUp, rows, error, rebuild);
    }

    private static ProcessorStatus.Segment segment(int id, EventTrackerStatus status) {
        OptionalLong position = status.getCurrentPosition();
        return new ProcessorStatus.Segment(id, status.isCaughtUp(), status.isReplaying(),
                position.isPresent() ? position.getAsLong() : null, status.isErrorState());
    }
}
