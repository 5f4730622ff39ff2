package io.herald.query.admin;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventProcessor;
import org.axonframework.eventhandling.EventTrackerStatus;
import org.axonframework.eventhandling.StreamingEventProcessor;
import org.axonframework.eventhandling.tokenstore.UnableToClaimTokenException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Rebuilds a projection from the history (API.md "Audit") and shows how far every processor is.
 * A rebuild stops the processor, resets its tokens to the start of the store (its
 * {@code @ResetHandler}s empty its tables in the same transaction) and starts it again; the
 * processor then replays the whole history while the rest of Herald keeps running.
 */
@RestController
public class ProjectionAdminController {

    private static final Logger log = LoggerFactory.getLogger(ProjectionAdminController.class);

    private final EventProcessingConfiguration processing;

    public ProjectionAdminController(EventProcessingConfiguration processing) {
        this.processing = processing;
    }

    public record RebuildAccepted(String name, String status) {
    }

    @GetMapping(path = "/api/v1/admin/projections", produces = MediaType.APPLICATION_JSON_VALUE)
    public List<ProcessorStatus> processors() {
        return processing.eventProcessors().values().stream()
                .map(ProjectionAdminController::status)
                .sorted(Comparator.comparing(ProcessorStatus::name))
                .toList();
    }

    @PostMapping(path = "/api/v1/admin/projections/{name}/rebuild", produces = MediaType.APPLICATION_JSON_VALUE)
    public ResponseEntity<RebuildAccepted> rebuild(@PathVariable("name") String name) {
        StreamingEventProcessor processor = processing.eventProcessor(name, StreamingEventProcessor.class)
                .filter(StreamingEventProcessor::supportsReset)
                // sagas are processors too, but replaying one would repeat its side effects
                .orElseThrow(() -> new HeraldRejection(ErrorCode.NOT_FOUND, "no projection named " + name));
        log.info("rebuilding projection {} from the history", name);
        try {
            processor.shutdownAsync().get();
            processor.resetTokens();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping " + name, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not stop " + name, e.getCause());
        } catch (UnableToClaimTokenException e) {
            // another node still runs this processor and holds its segments
            processor.start();
            throw new HeraldRejection(ErrorCode.CONCURRENT_MODIFICATION, "projection " + name
                    + " is running on another node; stop it there (or on every other node) and ask again");
        }
        processor.start();
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(new RebuildAccepted(name, "rebuilding"));
    }

    static ProcessorStatus status(EventProcessor processor) {
        if (!(processor instanceof StreamingEventProcessor streaming)) {
            return new ProcessorStatus(processor.getName(), false, processor.isRunning(), false, true, List.of(),
                    processor.isError() ? "in error" : null);
        }
        Map<Integer, EventTrackerStatus> segments = streaming.processingStatus();
        List<ProcessorStatus.Segment> rows = segments.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .map(e -> segment(e.getKey(), e.getValue()))
                .toList();
        boolean replaying = rows.stream().anyMatch(ProcessorStatus.Segment::replaying);
        // a segment counts only once claimed; right after a start there may be none yet. A replaying
        // segment can be caught up: it is marked replaying until it handles an event newer than the reset.
        boolean caughtUp = streaming.isRunning() && !rows.isEmpty()
                && rows.stream().allMatch(s -> s.caughtUp() && !s.errored());
        String error = segments.values().stream().filter(EventTrackerStatus::isErrorState)
                .map(s -> "segment " + s.getSegment().getSegmentId() + ": " + s.getError().getClass().getSimpleName())
                .findFirst().orElse(null);
        return new ProcessorStatus(streaming.getName(), streaming.supportsReset(), streaming.isRunning(), replaying,
                caughtUp, rows, error);
    }

    private static ProcessorStatus.Segment segment(int id, EventTrackerStatus status) {
        OptionalLong position = status.getCurrentPosition();
        return new ProcessorStatus.Segment(id, status.isCaughtUp(), status.isReplaying(),
                position.isPresent() ? position.getAsLong() : null, status.isErrorState());
    }
}
