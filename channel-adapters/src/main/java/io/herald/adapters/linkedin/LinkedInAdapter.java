package io.herald.adapters.linkedin;

import io.herald.adapters.http.ProviderHttp;
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
 * LinkedIn through the versioned Posts API ({@code /rest/posts}): the write steps
 * ({@link LinkedInPublisher}), read-back through the author's posts ({@link LinkedInFeedReader}),
 * the capability probe ({@link LinkedInProbe}), and the limits a request must fit before it is accepted.
 */
public final class LinkedInAdapter extends ProviderAdapter {

    static final int COMMENTARY_MAX = 3000;
    /** One image or a multi-image post (Herald allows 10); the comment limit is Herald's (docs/channels.md). */
    static final int MAX_IMAGES = 10;
    static final int COMMENT_MAX = 1250;

    private final LinkedInPostOwner owner;
    private final String version;

    public LinkedInAdapter(ProviderHttp http, String apiBaseUrl, String version) {
        this(http, LinkedInApi.at(apiBaseUrl, version));
    }

    private LinkedInAdapter(ProviderHttp http, LinkedInApi api) {
        super(LinkedInPlugin.TYPE, LinkedInPublisher.steps(http, api), LinkedInFeedReader.of(http, api),
                new LinkedInProbe(http, api));
        this.owner = new LinkedInPostOwner(http, api);
        this.version = api.version();
    }

    /** The {@code LinkedIn-Version} every call sends. */
    String version() {
        return version;
    }

    @Override
    public CompletableFuture<PostOwnership> readOwnership(PostOwnershipRequest request) {
        return owner.read(request);
    }

    /** A link or images, not both; the post's text is required. */
    @Override
    public List<FieldViolation> validate(Content content, PublicationAction action) {
        List<FieldViolation> violations = new ArrayList<>(ContentLimits.publishOnly(action));
        if (!ContentLimits.hasBody(content)) {
            violations.add(new FieldViolation("content.body", "LinkedIn needs the post's text"));
        } else if (content.body().length() > COMMENTARY_MAX) {
            violations.add(new FieldViolation("content.body",
                    "LinkedIn commentary is at most " + COMMENTARY_MAX + " characters"));
        }
        violations.addAll(ContentLimits.social(content, "LinkedIn", MAX_IMAGES, COMMENT_MAX));
        return violations;
    }
}
