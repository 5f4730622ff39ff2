package io.herald.command.publication;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStatus;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationView;
import io.herald.contracts.publication.PublicationView.Step;
import io.herald.contracts.publication.PublicationView.StepStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which {@code confirm_published} names the post (and is read back first), and which names a first comment. */
class PostReferenceCheckTest {

    private static final ProviderRef POST = new ProviderRef("urn:li:share:1", null);
    private static final Instant T0 = Instant.parse("2026-12-01T09:00:00Z");

    private static PublicationView view(StepStatus comment, PublicationStep decisionStep) {
        List<Step> steps = List.of(new Step(PublicationStep.CREATE_POST, null, StepStatus.SUCCEEDED, POST, 1, null,
                List.of(1)), new Step(PublicationStep.FIRST_COMMENT, null, comment, null,
                comment == StepStatus.PENDING ? 0 : 1, null, comment == StepStatus.PENDING ? List.of() : List.of(2)));
        return new PublicationView(PublicationId.of("pub_1"), WorkspaceId.of("acme"), "entry-1", 1,
                ChannelId.of("li-w"), ChannelType.of("linkedin"), PublicationAction.PUBLISH,
                PublicationStatus.SUCCEEDED, "hash", null, T0, POST, List.of(), List.of(), decisionStep != null,
                decisionStep == null ? null : "why", T0, steps, decisionStep);
    }

    @Test
    void aConfirmationWhileTheCommentWaitsForAReadablePostNamesThePost() {
        // the post was confirmed without being read back; the comment never ran and waits on it
        assertThat(PostReferenceCheck.namesThePost(view(StepStatus.PENDING, PublicationStep.FIRST_COMMENT), POST))
                .isTrue();
    }

    @Test
    void aConfirmationOfACommentThatRanNamesTheComment() {
        assertThat(PostReferenceCheck.namesThePost(view(StepStatus.OUTCOME_UNKNOWN, PublicationStep.FIRST_COMMENT),
                POST)).isFalse();
        assertThat(PostReferenceCheck.namesThePost(view(StepStatus.FAILED, PublicationStep.FIRST_COMMENT), POST))
                .isFalse();
        assertThat(PostReferenceCheck.namesThePost(view(StepStatus.PENDING, null), POST)).isTrue();
        assertThat(PostReferenceCheck.namesThePost(view(StepStatus.PENDING, null), null)).isFalse();
    }
}
