package io.herald.deploy.axon;

import io.herald.platform.unitofwork.BatchAggregates;
import java.sql.Array;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.axonframework.common.Registration;
import org.axonframework.common.caching.Cache;
import org.axonframework.eventsourcing.AggregateCacheEntry;
import org.axonframework.eventsourcing.EventSourcedAggregate;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Keeps recently used aggregates in memory, and hands one out only while the event store holds no
 * newer event for it. Each use costs one indexed {@code max(sequence_number)} lookup instead of
 * reading and replaying the aggregate's events.
 *
 * <p>The check is what makes a cache safe with several nodes: another node may have appended to a
 * publication this node still holds (an operator's decision, a segment that moved). A plain cache
 * would then decide on stale state, and a refusal (say, "awaits an operator's decision") would
 * never reach the event store's unique key to be caught. An append racing the check still meets
 * that key; the command fails with a concurrency conflict and Axon evicts the entry on rollback.
 *
 * <p>A batch (the dispatcher's events, a batch of results or timers) asks once for the versions of
 * all the aggregates it declares ({@link BatchAggregates}) when it first uses one: one statement a
 * batch instead of one a command. Within the batch Axon keeps each loaded aggregate in its unit of
 * work, so an aggregate's version is looked up at most once per batch, as before.
 *
 * <p>Entries live in a bounded map that keeps the most recently used ({@link RecentEntries}); the
 * live aggregate object is kept, as Axon's own in-memory caches do, and the repository's lock keeps
 * it to one command at a time on this node.
 */
public final class StoreCheckedAggregateCache implements Cache {

    private static final String BATCH_VERSIONS = StoreCheckedAggregateCache.class.getName() + ".versions";

    private final RecentEntries entries;
    private final EventStorageEngine store;
    private final JdbcTemplate jdbc;
    private final String eventTable;

    public StoreCheckedAggregateCache(EventStorageEngine store, JdbcTemplate jdbc, String eventTable,
                                      long maximumSize, Duration idleExpiry) {
        this.store = store;
        this.jdbc = jdbc;
        this.eventTable = eventTable;
        this.entries = new RecentEntries(maximumSize, idleExpiry, Clock.systemUTC());
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K, V> V get(K key) {
        Object value = entries.get(key);
        if (value == null) {
            return null;
        }
        Long cached = versionOf(value);
        Optional<Long> stored = storedVersion(key.toString());
        if (cached == null || !Objects.equals(cached, stored.orElse(null))) {
            entries.remove(key, value);
            return null;
        }
        return (V) value;
    }

    /** The sequence number of the aggregate's last stored event, from its batch's lookup where there is one. */
    private Optional<Long> storedVersion(String aggregateId) {
        Optional<Set<String>> batch = BatchAggregates.ofCurrentBatch().filter(ids -> ids.contains(aggregateId));
        if (batch.isEmpty()) {
            return store.lastSequenceNumberFor(aggregateId);
        }
        Map<String, Long> versions = CurrentUnitOfWork.get().root()
                .getOrComputeResource(BATCH_VERSIONS, k -> versionsOf(batch.get()));
        return Optional.ofNullable(versions.get(aggregateId));
    }

    private Map<String, Long> versionsOf(Set<String> aggregateIds) {
        Map<String, Long> versions = new HashMap<>();
        jdbc.query(connection -> {
            var statement = connection.prepareStatement("SELECT aggregate_identifier, max(sequence_number) FROM "
                    + eventTable + " WHERE aggregate_identifier = ANY (?) GROUP BY aggregate_identifier");
            Array ids = connection.createArrayOf("varchar", aggregateIds.toArray());
            statement.setArray(1, ids);
            return statement;
        }, rs -> {
            versions.put(rs.getString(1), rs.getLong(2));
        });
        return versions;
    }

    /**
     * The sequence number of the entry's last event. An in-memory entry carries the live aggregate,
     * which {@code recreateAggregate} returns without using its arguments; anything else is
     * treated as a miss.
     */
    private static Long versionOf(Object value) {
        if (!(value instanceof AggregateCacheEntry<?> entry)) {
            return null;
        }
        try {
            EventSourcedAggregate<?> aggregate = entry.recreateAggregate(null, null, null, null);
            return aggregate.version();
        } catch (RuntimeException notInMemory) {
            return null;
        }
    }

    @Override
    public void put(Object key, Object value) {
        entries.put(key, value);
    }

    @Override
    public boolean putIfAbsent(Object key, Object value) {
        return entries.putIfAbsent(key, value);
    }

    @Override
    public boolean remove(Object key) {
        return entries.remove(key);
    }

    @Override
    public void removeAll() {
        entries.clear();
    }

    @Override
    public boolean containsKey(Object key) {
        return entries.containsKey(key);
    }

    /** Axon's repositories register no listeners; nothing here would call them. */
    @Override
    public Registration registerCacheEntryListener(EntryListener cacheEntryListener) {
        return () -> true;
    }
}
