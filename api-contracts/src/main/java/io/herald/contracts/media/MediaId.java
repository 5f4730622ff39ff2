package io.herald.contracts.media;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;
import java.util.regex.Pattern;

/** An uploaded image's id: {@code med_<hex SHA-256 of its bytes>}, so the same bytes always get the same id. */
public record MediaId(String value) {

    private static final Pattern FORM = Pattern.compile("med_[0-9a-f]{64}");

    public MediaId {
        Objects.requireNonNull(value, "value");
        if (!FORM.matcher(value).matches()) {
            throw new IllegalArgumentException("a media id is med_ and 64 lower-case hex digits");
        }
    }

    /** Whether the text is a media id at all (a path segment that is not can name no media). */
    public static boolean isMediaId(String text) {
        return text != null && FORM.matcher(text).matches();
    }

    @JsonCreator
    public static MediaId of(String value) {
        return new MediaId(value);
    }

    @JsonValue
    @Override
    public String value() {
        return value;
    }

    @Override
    public String toString() {
        return value;
    }
}
