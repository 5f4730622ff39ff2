package io.herald.platform.projection;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.axonframework.messaging.unitofwork.UnitOfWork;

/**
 * One rebuild of a projection, as its handlers see it from each page's unit of work: a place to
 * keep what they gather across pages (rows still changing, counts to add) and write once, when the
 * last page has been handled, instead of once a page. What is written at the end is written in the
 * rebuild's transaction, before it commits; nothing of it is written if the rebuild fails.
 */
public final class RebuildScope {

    /** The resource of every rebuild batch's unit of work that holds its rebuild. */
    static final String RESOURCE = RebuildScope.class.getName();

    private final Map<String, Object> resources = new HashMap<>();
    private final List<Runnable> atEnd = new ArrayList<>();

    RebuildScope() {
    }

    /** The rebuild the current unit of work is a page of; null outside a rebuild. */
    public static RebuildScope current() {
        if (!CurrentUnitOfWork.isStarted()) {
            return null;
        }
        return of(CurrentUnitOfWork.get().root());
    }

    /** The rebuild this unit of work is a page of; null if it is none. */
    public static RebuildScope of(UnitOfWork<?> unit) {
        return unit.root().getResource(RESOURCE);
    }

    /**
     * What the rebuild keeps under {@code key}, created (and {@code atEnd} registered to run after
     * the last page) the first time it is asked for.
     */
    @SuppressWarnings("unchecked")
    public <T> T resource(String key, Supplier<T> create) {
        return (T) resources.computeIfAbsent(key, k -> create.get());
    }

    /** Runs after the last page has been handled, in the rebuild's transaction, in the order registered. */
    public void atEnd(Runnable task) {
        atEnd.add(task);
    }

    /** After the last page. */
    void end() {
        for (Runnable task : atEnd) {
            task.run();
        }
    }
}
