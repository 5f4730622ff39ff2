package io.herald.adapters.facebook;

import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.port.ContentLimits;
import io.herald.adapters.port.PostOwnership;
import io.herald.adapters.port.PostOwnershipRequest;
import io.herald.adapters.port.ProviderAdapter;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Facebook Page posts through the Graph API: the write steps ({@link FacebookPublisher}), read-back
 * through the Page feed ({@link FacebookFeedReader}), the capability probe ({@link FacebookProbe}),
 * and the limits a request must fit before it is accepted.
 */
public final class FacebookAdapter extends ProviderAdapter {

    /** A post on Facebook has either a link or photos; the comment limit is Herald's (docs/channels.md). */
    static final int MAX_IMAGES = 10;
    static final int COMMENT_MAX = 1250;
    static final int MESSAGE_MAX = 63206;

    private final FacebookPostOwner owner;
    private final FacebookGraph graph;

    public FacebookAdapter(ProviderHttp http, String graphBaseUrl) {
        this(http, FacebookGraph.at(graphBaseUrl));
    }

    private FacebookAdapter(ProviderHttp http, FacebookGraph graph) {
        super(FacebookPlugin.TYPE, FacebookPublisher.steps(http, graph), FacebookFeedReader.of(http, graph),
                new FacebookProbe(http, graph));
        this.owner = new FacebookPostOwner(http, graph);
        this.graph = graph;
    }

    /** The Graph address every call goes below, its version included. */
    URI graphBase() {
        return graph.base();
    }

    @Override
    public CompletableFuture<PostOwnership> readOwnership(PostOwnershipRequest request) {
        return owner.read(request);
    }

    @Override
    public List<FieldViolation> validate(Content content, PublicationAction action) {
        List<FieldViolation> violations = new ArrayList<>(ContentLimits.publishOnly(action));
        boolean hasBody = ContentLimits.hasBody(content);
        if (!hasBody && content.link() == null && !content.hasMedia()) {
            violations.add(new FieldViolation("content.body", "Facebook needs a message, a link or images"));
        }
        if (hasBody && content.body().length() > MESSAGE_MAX) {
            violations.add(new FieldViolation("content.body",
                    "Facebook messages are at most " + MESSAGE_MAX + " characters"));
        }
        violations.addAll(ContentLimits.social(content, "Facebook", MAX_IMAGES, COMMENT_MAX));
        return violations;
    }
}
