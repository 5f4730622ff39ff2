package io.herald.sandbox;

import java.util.List;
import java.util.Optional;

/** Comments and replies per provider and post, oldest first. */
public final class CommentStore {

    private final KeyedLists<SandboxComment> comments = new KeyedLists<>();

    public void add(String provider, SandboxComment comment) {
        comments.add(provider, comment.postId(), comment);
    }

    /** The post's comments and replies, oldest first. */
    public List<SandboxComment> of(String provider, String postId) {
        return comments.get(provider, postId);
    }

    /** The comment with this id under any post of the provider. */
    public Optional<SandboxComment> find(String provider, String id) {
        return comments.first(provider, comment -> comment.id().equals(id));
    }

    /** Removes the comment, and its replies with it. */
    public boolean remove(String provider, SandboxComment comment) {
        return comments.removeAll(provider, comment.postId(),
                c -> c.id().equals(comment.id()) || comment.id().equals(c.parentId()));
    }

    public void clear() {
        comments.clear();
    }
}
