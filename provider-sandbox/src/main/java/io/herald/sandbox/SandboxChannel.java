package io.herald.sandbox;

import java.util.List;
import java.util.Map;

/**
 * What one simulated provider says about a connection to it, whatever its own wire shape: the posts
 * that exist where the connection publishes. Each provider's sandbox package has one, so a test
 * can count the posts of every channel type, the types added later included.
 */
public interface SandboxChannel {

    /** A post as the provider holds it: its id at the provider and its text. */
    record Post(String id, String text) {
    }

    /** The channel type, as a connection's {@code type} field names it. */
    String type();

    /** The posts that exist where a connection with these fields (the {@code PUT} body) publishes. */
    List<Post> posts(Map<String, Object> connection);
}
