package io.herald.adapters.bluesky;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A record's address, {@code at://<repo>/<collection>/<rkey>}: the provider id of a Bluesky post. */
record AtUri(String repo, String collection, String rkey) {

    private static final Pattern FORM = Pattern.compile("at://([^/\\s]+)/([^/\\s]+)/([^/\\s]+)");

    static Optional<AtUri> parse(String uri) {
        if (uri == null) {
            return Optional.empty();
        }
        Matcher matcher = FORM.matcher(uri);
        return matcher.matches() ? Optional.of(new AtUri(matcher.group(1), matcher.group(2), matcher.group(3)))
                : Optional.empty();
    }

    String uri() {
        return "at://" + repo + "/" + collection + "/" + rkey;
    }
}
