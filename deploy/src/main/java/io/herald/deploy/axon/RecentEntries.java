package io.herald.deploy.axon;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A bounded map that drops the entry used longest ago (least recently used), and treats an entry
 * unused for longer than the idle time as gone.
 *
 * <p>Why not Caffeine's bounded map: its admission policy keeps entries that were used often. A
 * publication is used a few times within seconds of its creation and then rarely again, so once
 * the map is full of finished publications, each used three or four times, a new one loses
 * against them and is dropped before its next command; measured with a full map and 500
 * publications in flight, nine gets in ten missed. Here the newest entries are always the ones kept.
 */
final class RecentEntries {

    private record Entry(Object value, long lastUsedMillis) {
    }

    private final Map<Object, Entry> entries;
    private final long idleMillis;
    private final Clock clock;

    RecentEntries(long maximumSize, Duration idle, Clock clock) {
        this.idleMillis = idle.toMillis();
        this.clock = clock;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Object, Entry> eldest) {
                return size() > maximumSize;
            }
        };
    }

    synchronized Object get(Object key) {
        Entry entry = entries.get(key);
        if (entry == null) {
            return null;
        }
        long now = clock.millis();
        if (now - entry.lastUsedMillis() > idleMillis) {
            entries.remove(key);
            return null;
        }
        entries.put(key, new Entry(entry.value(), now));
        return entry.value();
    }

    synchronized void put(Object key, Object value) {
        entries.put(key, new Entry(value, clock.millis()));
    }

    synchronized boolean putIfAbsent(Object key, Object value) {
        if (get(key) != null) {
            return false;
        }
        put(key, value);
        return true;
    }

    /** Removes the entry only while it still holds {@code value}. */
    synchronized boolean remove(Object key, Object value) {
        Entry entry = entries.get(key);
        if (entry != null && entry.value() == value) {
            entries.remove(key);
            return true;
        }
        return false;
    }

    synchronized boolean remove(Object key) {
        return entries.remove(key) != null;
    }

    synchronized void clear() {
        entries.clear();
    }

    synchronized boolean containsKey(Object key) {
        Entry entry = entries.get(key);
        return entry != null && clock.millis() - entry.lastUsedMillis() <= idleMillis;
    }

    synchronized int size() {
        return entries.size();
    }
}
