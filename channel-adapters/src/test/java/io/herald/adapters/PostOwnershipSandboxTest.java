package io.herald.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.port.ChannelAdapter;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PostOwnership;
import io.herald.adapters.port.PostOwnershipRequest;
import io.herald.adapters.port.PublishOutcome;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ProviderRef;
import io.herald.sandbox.SandboxState.FacebookTokenKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Whose a post an operator names is, per provider, against the sandbox: the connection's own post
 * is found by its id or by its URL alone; another Page's post is refused from its id, and a
 * LinkedIn token granted without the read scope cannot check anything.
 */
class PostOwnershipSandboxTest extends SandboxTestSupport {

    private static ProviderRef created(ChannelAdapter adapter, ChannelConnection connection) {
        PublishOutcome outcome = result(adapter.publish(publish(connection, new Content("Title", "Mine", null))));
        assertThat(outcome).isInstanceOf(PublishOutcome.Published.class);
        return ((PublishOutcome.Published) outcome).providerRef();
    }

    private static PostOwnership owner(ChannelAdapter adapter, ChannelConnection connection, ProviderRef named) {
        return result(adapter.readOwnership(new PostOwnershipRequest(named, publicationId("owner"), connection)));
    }

    @Test
    void facebookFindsThePagesPostByIdOrUrlAndRefusesAnotherPagesFromItsId() {
        String page = numericId();
        String token = unique("EAAPage");
        sandbox.facebookToken(token, page, FacebookTokenKind.PAGE);
        ChannelConnection connection = facebookConnection(page, token, null);
        ChannelAdapter adapter = facebook(SHORT_READ_TIMEOUT);
        ProviderRef post = created(adapter, connection);

        assertThat(owner(adapter, connection, new ProviderRef(post.id(), null)))
                .isInstanceOfSatisfying(PostOwnership.Owned.class, o -> assertThat(o.post().id()).isEqualTo(post.id()));
        assertThat(owner(adapter, connection, new ProviderRef(null, "https://www.facebook.com/" + post.id())))
                .isInstanceOfSatisfying(PostOwnership.Owned.class, o -> assertThat(o.post().id()).isEqualTo(post.id()));
        String[] parts = post.id().split("_");
        assertThat(owner(adapter, connection, new ProviderRef(null,
                "https://www.facebook.com/" + parts[0] + "/posts/" + parts[1])))
                .isInstanceOf(PostOwnership.Owned.class);
        assertThat(owner(adapter, connection, new ProviderRef("1" + page + "_" + parts[1], null)))
                .isInstanceOfSatisfying(PostOwnership.NotOwned.class,
                        n -> assertThat(n.found()).contains("Page 1" + page));
        assertThat(owner(adapter, connection, new ProviderRef(null, "https://www.facebook.com/somepage")))
                .isInstanceOf(PostOwnership.NotOwned.class);
    }

    @Test
    void linkedInFindsTheAuthorsPostByUrlAndCannotCheckWithoutTheReadScope() {
        String author = "urn:li:person:" + unique("owner");
        String token = unique("li");
        List<String> scopes = List.of("w_member_social", "r_member_social");
        sandbox.linkedInToken(token, author, scopes);
        ChannelAdapter adapter = linkedIn(SHORT_READ_TIMEOUT);
        ProviderRef post = created(adapter, linkedInConnection(author, token, scopes));

        assertThat(owner(adapter, linkedInConnection(author, token, scopes),
                new ProviderRef(null, "https://www.linkedin.com/feed/update/" + post.id() + "/")))
                .isInstanceOfSatisfying(PostOwnership.Owned.class, o -> assertThat(o.post().id()).isEqualTo(post.id()));
        String writeOnly = unique("li-w");
        sandbox.linkedInToken(writeOnly, author, List.of("w_member_social"));
        assertThat(owner(adapter, linkedInConnection(author, writeOnly, List.of("w_member_social")),
                new ProviderRef(post.id(), null)))
                .isInstanceOfSatisfying(PostOwnership.Unreadable.class,
                        u -> assertThat(u.reason()).contains("r_member_social"));
    }

    @Test
    void wordPressFindsTheUsersPostByItsQueryUrl() {
        String site = unique("ownerblog");
        sandbox.wordPressSite(site, "editor", "abcdefghijkl", true);
        ChannelConnection connection = wordPressConnection(sandbox.wordPressSiteUrl(site), "editor",
                "abcd efgh ijkl");
        ChannelAdapter adapter = wordPress(SHORT_READ_TIMEOUT);
        ProviderRef post = created(adapter, connection);

        assertThat(owner(adapter, connection, new ProviderRef(null, "https://blog.example/?p=" + post.id())))
                .isInstanceOfSatisfying(PostOwnership.Owned.class, o -> assertThat(o.post().id()).isEqualTo(post.id()));
        assertThat(owner(adapter, connection, new ProviderRef("not-a-number", null)))
                .isInstanceOf(PostOwnership.NotOwned.class);
    }
}
