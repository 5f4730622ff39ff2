package io.herald.adapters.wordpress;

import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.http.Texts;
import io.herald.adapters.port.ContentLimits;
import io.herald.adapters.port.PostOwnership;
import io.herald.adapters.port.PostOwnershipRequest;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * WordPress through its REST API with an Application Password ({@link WordPressRest}): the write
 * steps ({@link WordPressPublisher}), read-back by the publication id in the post's meta
 * {@value #META_KEY} ({@link WordPressFeedReader}), the capability probe ({@link WordPressProbe}),
 * and the limits a request must fit before it is accepted.
 */
public final class WordPressAdapter extends ProviderAdapter {

    /** The post meta the Herald mu-plugin keeps, exposes and lets a client filter by. */
    public static final String META_KEY = "herald_publication_id";
    static final int MAX_IMAGES = 10;

    private final WordPressPostOwner owner;

    public WordPressAdapter(ProviderHttp http) {
        super(WordPressPlugin.TYPE, WordPressPublisher.steps(http), WordPressFeedReader.of(http),
                new WordPressProbe(http));
        this.owner = new WordPressPostOwner(http);
    }

    @Override
    public CompletableFuture<PostOwnership> readOwnership(PostOwnershipRequest request) {
        return owner.read(request);
    }

    /** Images become the featured image and figures in the content (a first comment is refused before: see the plug-in). */
    @Override
    public List<FieldViolation> validate(Content content, PublicationAction action) {
        List<FieldViolation> violations = new ArrayList<>();
        if (!ContentLimits.hasBody(content) && Texts.blank(content.title())) {
            violations.add(new FieldViolation("content", "WordPress needs a title or a body"));
        }
        violations.addAll(ContentLimits.images(content, MAX_IMAGES));
        return violations;
    }
}
