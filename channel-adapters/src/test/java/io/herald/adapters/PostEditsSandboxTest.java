package io.herald.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.adapters.port.ChannelAdapter;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.PostChangeRequest;
import io.herald.adapters.port.PostReadRequest;
import io.herald.adapters.port.PostReading;
import io.herald.adapters.port.PublishOutcome;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxFault.Type;
import io.herald.sandbox.SandboxState.FacebookTokenKind;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Edit, delete and read of one post by id, per provider, against the sandbox: the change is made,
 * the read shows it, a delete of a post that is already gone counts as done, and a server error
 * is an unknown outcome (the step converges, so a read-back decides).
 */
class PostEditsSandboxTest extends SandboxTestSupport {

    private record Channel(String provider, String target, ChannelAdapter adapter, ChannelConnection connection) {
    }

    private Channel facebook() {
        String page = numericId();
        String token = unique("EAAPage");
        sandbox.facebookToken(token, page, FacebookTokenKind.PAGE);
        return new Channel("facebook", page, facebook(SHORT_READ_TIMEOUT), facebookConnection(page, token, null));
    }

    private Channel linkedIn() {
        String author = "urn:li:person:" + unique("edits");
        String token = unique("li");
        List<String> scopes = List.of("w_member_social", "r_member_social");
        sandbox.linkedInToken(token, author, scopes);
        return new Channel("linkedin", author, linkedIn(SHORT_READ_TIMEOUT), linkedInConnection(author, token, scopes));
    }

    private Channel wordPress() {
        String site = unique("editsblog");
        sandbox.wordPressSite(site, "editor", "abcdefghijkl", true);
        return new Channel("wordpress", site, wordPress(SHORT_READ_TIMEOUT),
                wordPressConnection(sandbox.wordPressSiteUrl(site), "editor", "abcd efgh ijkl"));
    }

    private static ProviderRef created(Channel channel, String text) {
        PublishOutcome outcome = result(channel.adapter().publish(publish(channel.connection(),
                new Content("Title", text, null))));
        assertThat(outcome).isInstanceOf(PublishOutcome.Published.class);
        return ((PublishOutcome.Published) outcome).providerRef();
    }

    private static PostChangeRequest change(Channel channel, PublicationAction action, ProviderRef post,
                                            Content content) {
        return new PostChangeRequest(publicationId("edit-" + post.id()), 1, action, content, post,
                channel.connection());
    }

    private void editsReadsAndDeletes(Channel channel) {
        ProviderRef post = created(channel, "Frist words");
        Content fixed = new Content("Title", "First words", null);

        PublishOutcome edited = result(channel.adapter().edit(change(channel, PublicationAction.UPDATE, post, fixed)));

        assertThat(edited).isInstanceOf(PublishOutcome.Published.class);
        assertThat(((PublishOutcome.Published) edited).providerRef().id()).isEqualTo(post.id());
        assertThat(edited.trace().requestFingerprint()).hasSize(64);
        assertThat(result(channel.adapter().readPost(new PostReadRequest(post, fixed, channel.connection()))))
                .isInstanceOfSatisfying(PostReading.Present.class, p -> assertThat(p.asWanted()).isTrue());
        assertThat(result(channel.adapter().readPost(new PostReadRequest(post,
                new Content("Title", "Other words", null), channel.connection()))))
                .isInstanceOfSatisfying(PostReading.Present.class, p -> assertThat(p.asWanted()).isFalse());

        PublishOutcome deleted = result(channel.adapter().delete(change(channel, PublicationAction.DELETE, post,
                fixed)));
        PublishOutcome again = result(channel.adapter().delete(change(channel, PublicationAction.DELETE, post,
                fixed)));

        assertThat(deleted).isInstanceOf(PublishOutcome.Published.class);
        assertThat(again).as("a post already gone counts as deleted").isInstanceOf(PublishOutcome.Published.class);
        assertThat(result(channel.adapter().readPost(new PostReadRequest(post, null, channel.connection()))))
                .isInstanceOf(PostReading.Gone.class);
        assertThat(sandbox.deleted(channel.provider(), channel.target())).hasSize(1);
    }

    private void aServerErrorIsAnUnknownOutcome(Channel channel) {
        ProviderRef post = created(channel, "Stays as it is");
        sandbox.fault(SandboxFault.of(channel.provider(), channel.target(), Type.ERROR_5XX_NO_EFFECT)
                .withOperation(SandboxFault.Operation.EDIT));

        PublishOutcome outcome = result(channel.adapter().edit(change(channel, PublicationAction.UPDATE, post,
                new Content("Title", "Changed", null))));

        assertThat(outcome).isInstanceOf(PublishOutcome.OutcomeUnknown.class);
        assertThat(sandbox.truth(channel.provider(), channel.target()).get(0).path("text").asText())
                .contains("Stays as it is");
    }

    @Test
    void facebookEditsReadsAndDeletesAPost() {
        editsReadsAndDeletes(facebook());
    }

    @Test
    void linkedInEditsReadsAndDeletesAPost() {
        editsReadsAndDeletes(linkedIn());
    }

    @Test
    void wordPressEditsReadsAndTrashesAPost() {
        editsReadsAndDeletes(wordPress());
    }

    @Test
    void aServerErrorOnAnEditIsAnUnknownOutcomeOnEveryChannel() {
        aServerErrorIsAnUnknownOutcome(facebook());
        aServerErrorIsAnUnknownOutcome(linkedIn());
        aServerErrorIsAnUnknownOutcome(wordPress());
    }

    @Test
    void anEditOfAPostThatDoesNotExistIsRejectedNotDone() {
        Channel channel = facebook();
        PublishOutcome outcome = result(channel.adapter().edit(change(channel, PublicationAction.UPDATE,
                new ProviderRef(channel.target() + "_404", null), new Content(null, "text", null))));
        assertThat(outcome).isInstanceOfSatisfying(PublishOutcome.Failed.class,
                f -> assertThat(f.kind()).isEqualTo(FailureKind.REJECTED));
    }
}
