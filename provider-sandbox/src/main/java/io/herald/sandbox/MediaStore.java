package io.herald.sandbox;

import io.herald.sandbox.SandboxState.Attachment;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/** Images by provider and id, the images each post shows, and WordPress's featured images. */
public final class MediaStore {

    /** Images by provider and id; listed per target in upload order. */
    private final Map<String, SandboxMedia> media = new ConcurrentHashMap<>();
    private final Map<String, Long> mediaOrder = new ConcurrentHashMap<>();
    private final AtomicLong uploads = new AtomicLong();
    /** By provider and post id: the images a post shows, in order, with their alt texts. */
    private final Map<String, List<Attachment>> attachments = new ConcurrentHashMap<>();
    /** By provider and post id: WordPress's featured image (0 once cleared or ignored). */
    private final Map<String, Long> featured = new ConcurrentHashMap<>();

    private static String key(String provider, String id) {
        return provider + "|" + id;
    }

    public void put(String provider, SandboxMedia image) {
        String key = key(provider, image.id());
        mediaOrder.putIfAbsent(key, uploads.incrementAndGet());
        media.put(key, image);
    }

    public Optional<SandboxMedia> find(String provider, String id) {
        return Optional.ofNullable(id).map(i -> media.get(key(provider, i)));
    }

    /** Changes an image atomically; empty when it does not exist. */
    public Optional<SandboxMedia> update(String provider, String id, UnaryOperator<SandboxMedia> change) {
        return Optional.ofNullable(media.computeIfPresent(key(provider, id), (k, image) -> change.apply(image)));
    }

    public Optional<SandboxMedia> remove(String provider, String id) {
        mediaOrder.remove(key(provider, id));
        return Optional.ofNullable(media.remove(key(provider, id)));
    }

    /** The target's images, in upload order. */
    public List<SandboxMedia> of(String provider, String target) {
        return media.entrySet().stream()
                .filter(e -> e.getKey().startsWith(provider + "|") && e.getValue().target().equals(target))
                .sorted(Comparator.comparing(e -> mediaOrder.getOrDefault(e.getKey(), 0L)))
                .map(Map.Entry::getValue)
                .toList();
    }

    public void attach(String provider, String postId, List<Attachment> images) {
        if (!images.isEmpty()) {
            attachments.put(key(provider, postId), List.copyOf(images));
        }
    }

    public List<Attachment> attachments(String provider, String postId) {
        return attachments.getOrDefault(key(provider, postId), List.of());
    }

    public void feature(String provider, String postId, long mediaId) {
        featured.put(key(provider, postId), mediaId);
    }

    /** The post's featured image; empty when none was ever asked for. */
    public Optional<Long> featured(String provider, String postId) {
        return Optional.ofNullable(featured.get(key(provider, postId)));
    }

    /** Clears the image as the featured image of every post of the provider that has it. */
    public void unfeature(String provider, long mediaId) {
        featured.replaceAll((post, image) -> post.startsWith(provider + "|") && image == mediaId ? 0L : image);
    }

    public void clear() {
        media.clear();
        mediaOrder.clear();
        attachments.clear();
        featured.clear();
    }
}
