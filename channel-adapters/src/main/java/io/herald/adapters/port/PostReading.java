package io.herald.adapters.port;

/** What reading one post by its id showed, measured against the content an update wanted. */
public sealed interface PostReading {

    /** The post exists; {@code asWanted}: its text is the wanted content's (as the provider stores it). */
    record Present(boolean asWanted, String detail) implements PostReading {
    }

    /** The provider says the post does not exist (deleted, trashed, or never there). */
    record Gone(String detail) implements PostReading {
    }

    /** The read failed or its answer could not be read: ask again later or an operator. */
    record Unknown(String reason) implements PostReading {
    }

    /** The credentials do not allow reading the post. */
    record Unavailable(String reason) implements PostReading {
    }
}
