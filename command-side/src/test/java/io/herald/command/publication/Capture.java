package io.herald.command.publication;

import org.hamcrest.BaseMatcher;
import org.hamcrest.Description;

/** Records what an Axon test fixture hands it (the events, the result), and always matches. */
final class Capture<T> extends BaseMatcher<T> {
    T value;

    @Override
    @SuppressWarnings("unchecked")
    public boolean matches(Object actual) {
        value = (T) actual;
        return true;
    }

    @Override
    public void describeTo(Description description) {
        description.appendText("anything");
    }
}
