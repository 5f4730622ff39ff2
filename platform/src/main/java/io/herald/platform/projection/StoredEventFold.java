package io.herald.platform.projection;

import java.util.List;
import java.util.Set;

/**
 * A projection whose rebuild reads the stored events themselves rather than events deserialized
 * for its {@code @EventHandler}s: a projection that works on the stored JSON (the rule verifier)
 * would otherwise have every payload deserialized for nothing and then read the store a second
 * time. A Spring bean of this type takes over the rebuild of the processor named
 * {@link #processingGroup()}; everything else about the rebuild stays as it is (the claims, its
 * {@code @ResetHandler}s first, one transaction, store order, one snapshot, progress).
 */
public interface StoredEventFold {

    /** The processor, named after its one processing group, whose rebuild this is. */
    String processingGroup();

    /** The aggregate types ({@code domain_event_entry.type}) whose events the rebuild reads; no others. */
    Set<String> aggregateTypes();

    /** A new rebuild: called on the rebuild's thread, in its transaction, after the reset handlers. */
    Pass begin();

    /** One rebuild's state. */
    interface Pass {
        /**
         * The next page of stored events, in store order (each aggregate's events in sequence
         * order), in the rebuild's transaction; the page's rows are written before it returns.
         */
        void page(List<StoredEventRow> events);

        /** After the last page, in the rebuild's transaction: writes what the pass still holds. */
        default void finish() {
        }
    }
}
