package io.herald.command.media;

import java.time.Clock;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Removes images that no publication has named for {@code herald.media.retention}: uploaded before
 * then, named by no request since, and named by no publication that has not finished (one waiting
 * for its schedule or for an operator's decision keeps its images however old). Run as a recurring
 * task on one node at a time; batches until none is left, each its own transaction.
 */
@Component
public class MediaRetention {

    private static final Logger log = LoggerFactory.getLogger(MediaRetention.class);
    static final int BATCH = 200;

    private final MediaStore store;
    private final MediaProperties properties;
    private final Clock clock;

    public MediaRetention(MediaStore store, MediaProperties properties, Clock clock) {
        this.store = store;
        this.properties = properties;
        this.clock = clock;
    }

    public MediaProperties properties() {
        return properties;
    }

    /** @return how many images were removed */
    public int sweep() {
        Instant cutoff = clock.instant().minus(properties.retention());
        int total = 0;
        int removed;
        do {
            removed = store.removeUnusedSince(cutoff, BATCH);
            total += removed;
        } while (removed == BATCH);
        if (total > 0) {
            log.info("removed {} images no publication named since {}", total, cutoff);
        }
        return total;
    }
}
