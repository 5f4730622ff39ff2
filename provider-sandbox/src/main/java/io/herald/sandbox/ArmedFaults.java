package io.herald.sandbox;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Faults scripted on one simulated provider, each for the next {@code times} calls it matches, in
 * the order they were added. The provider's own package says what a fault is (its types, the
 * account and operation it names) and which call it matches.
 */
public final class ArmedFaults<F> {

    private record Armed<F>(F fault, AtomicInteger remaining) {
    }

    private final List<Armed<F>> armed = new CopyOnWriteArrayList<>();

    /** Arms {@code fault} for the next {@code times} calls it matches (at least one). */
    public void add(F fault, int times) {
        armed.add(new Armed<>(fault, new AtomicInteger(Math.max(1, times))));
    }

    public void clear() {
        armed.clear();
    }

    /** The first armed fault that matches the call and has calls left, counted down; empty when none. */
    public Optional<F> take(Predicate<F> matches) {
        for (Armed<F> a : armed) {
            if (matches.test(a.fault()) && a.remaining().getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                return Optional.of(a.fault());
            }
        }
        return Optional.empty();
    }
}
