package io.herald.sandbox;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Lists of one kind of thing, one list per provider and name (a target or a post id), each
 * changed under its own lock: what the sandbox's stores hold posts, edits, deletions and
 * comments in. Readers get copies.
 */
final class KeyedLists<T> {

    private final Map<String, List<T>> lists = new ConcurrentHashMap<>();

    private static String key(String provider, String name) {
        return provider + "|" + name;
    }

    void add(String provider, String name, T item) {
        List<T> list = lists.computeIfAbsent(key(provider, name), k -> new ArrayList<>());
        synchronized (list) {
            list.add(item);
        }
    }

    /** The list, oldest first; empty when there is none. */
    List<T> get(String provider, String name) {
        List<T> list = lists.get(key(provider, name));
        if (list == null) {
            return List.of();
        }
        synchronized (list) {
            return List.copyOf(list);
        }
    }

    /** The newest item of the list, without copying it: a create asks for it on every post. */
    Optional<T> last(String provider, String name) {
        List<T> list = lists.get(key(provider, name));
        if (list == null) {
            return Optional.empty();
        }
        synchronized (list) {
            return list.isEmpty() ? Optional.empty() : Optional.of(list.get(list.size() - 1));
        }
    }

    /** The first item that matches, in any list of the provider. */
    Optional<T> first(String provider, Predicate<T> matches) {
        for (Map.Entry<String, List<T>> entry : lists.entrySet()) {
            if (entry.getKey().startsWith(provider + "|")) {
                synchronized (entry.getValue()) {
                    for (T item : entry.getValue()) {
                        if (matches.test(item)) {
                            return Optional.of(item);
                        }
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** Replaces the first item that matches in place; empty when none does. */
    Optional<T> replaceFirst(String provider, String name, Predicate<T> matches, UnaryOperator<T> change) {
        List<T> list = lists.get(key(provider, name));
        if (list == null) {
            return Optional.empty();
        }
        synchronized (list) {
            for (ListIterator<T> it = list.listIterator(); it.hasNext(); ) {
                T item = it.next();
                if (matches.test(item)) {
                    T changed = change.apply(item);
                    it.set(changed);
                    return Optional.of(changed);
                }
            }
        }
        return Optional.empty();
    }

    /** Removes the first item that matches; empty when none does. */
    Optional<T> removeFirst(String provider, String name, Predicate<T> matches) {
        List<T> list = lists.get(key(provider, name));
        if (list == null) {
            return Optional.empty();
        }
        synchronized (list) {
            for (Iterator<T> it = list.iterator(); it.hasNext(); ) {
                T item = it.next();
                if (matches.test(item)) {
                    it.remove();
                    return Optional.of(item);
                }
            }
        }
        return Optional.empty();
    }

    boolean removeAll(String provider, String name, Predicate<T> matches) {
        List<T> list = lists.get(key(provider, name));
        if (list == null) {
            return false;
        }
        synchronized (list) {
            return list.removeIf(matches);
        }
    }

    void clear() {
        lists.clear();
    }
}
