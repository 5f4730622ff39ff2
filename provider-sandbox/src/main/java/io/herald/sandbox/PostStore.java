package io.herald.sandbox;

import io.herald.sandbox.SandboxState.Deletion;
import io.herald.sandbox.SandboxState.Edit;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** The posts that exist per provider and target, the edits accepted on them and the posts deleted. */
public final class PostStore {

    private final KeyedLists<SandboxPost> posts = new KeyedLists<>();
    /** By provider and post id: every edit accepted, oldest first. */
    private final KeyedLists<Edit> edits = new KeyedLists<>();
    /** By provider and target: posts deleted (WordPress: moved to the trash, or deleted for good). */
    private final KeyedLists<Deletion> deletions = new KeyedLists<>();

    public void add(String provider, SandboxPost post) {
        posts.add(provider, post.target(), post);
    }

    /** The target's posts, oldest first. */
    public List<SandboxPost> of(String provider, String target) {
        return posts.get(provider, target);
    }

    /** The target's posts, newest first: the order every provider lists them in. */
    public List<SandboxPost> newestFirst(String provider, String target) {
        List<SandboxPost> all = new ArrayList<>(of(provider, target));
        Collections.reverse(all);
        return all;
    }

    public Optional<SandboxPost> last(String provider, String target) {
        return posts.last(provider, target);
    }

    /** The post with this id at the target, if it exists (deleted posts do not). */
    public Optional<SandboxPost> find(String provider, String target, String id) {
        return of(provider, target).stream().filter(p -> p.id().equals(id)).findFirst();
    }

    /** The post with this id at any target of the provider (LinkedIn's URNs do not name their author). */
    public Optional<SandboxPost> find(String provider, String id) {
        return posts.first(provider, post -> post.id().equals(id));
    }

    /** Replaces the post in place (same position in the list); empty when it does not exist. */
    public Optional<SandboxPost> update(String provider, String target, String id, UnaryOperator<SandboxPost> change) {
        return posts.replaceFirst(provider, target, post -> post.id().equals(id), change);
    }

    /** Records an accepted edit of a post (the post itself is changed with {@link #update}). */
    public void recordEdit(String provider, SandboxPost after, Instant at) {
        edits.add(provider, after.id(), new Edit(at, after.text(), after.storedText(), after.title(), after.status()));
    }

    public List<Edit> edits(String provider, String postId) {
        return edits.get(provider, postId);
    }

    /** Removes the post; it is kept among the target's deletions. Empty when it did not exist. */
    public Optional<SandboxPost> remove(String provider, String target, String id, String how, Instant at) {
        Optional<SandboxPost> removed = posts.removeFirst(provider, target, post -> post.id().equals(id));
        removed.ifPresent(post -> recordDeletion(provider, post, how, at));
        return removed;
    }

    /** Notes a deletion of a post that stays listed (WordPress's trash). */
    public void recordDeletion(String provider, SandboxPost post, String how, Instant at) {
        deletions.add(provider, post.target(), new Deletion(post, at, how));
    }

    public List<Deletion> deletions(String provider, String target) {
        return deletions.get(provider, target);
    }

    /** Whether the post with this id was deleted (not only trashed) at some target of the provider. */
    public Optional<Deletion> deletion(String provider, String id) {
        return deletions.first(provider, d -> d.post().id().equals(id) && !d.how().equals("trash"));
    }

    public void clear() {
        posts.clear();
        edits.clear();
        deletions.clear();
    }
}
