package io.herald.contracts.publication;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.herald.contracts.media.MediaId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The core step kinds carry the rules of the design's steps table, and the view shows them. */
class StepKindsTest {

    private static final ObjectMapper STRICT = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    private static final MediaId RED = MediaId.of("med_" + "a".repeat(64));

    @Test
    void theCoreKindsCarryTheirClassAndPlace() {
        assertThat(PublicationStep.UPLOAD_MEDIA.stepClass()).isEqualTo(StepClass.REPEATABLE);
        assertThat(PublicationStep.UPLOAD_MEDIA.readsBackBeforeResend()).isFalse();
        assertThat(PublicationStep.UPLOAD_MEDIA.role()).isEqualTo(StepRole.PREPARES_POST);
        assertThat(PublicationStep.CREATE_POST.stepClass()).isEqualTo(StepClass.ONCE_ONLY);
        assertThat(PublicationStep.CREATE_POST.makesPost()).isTrue();
        assertThat(PublicationStep.FIRST_COMMENT.stepClass()).isEqualTo(StepClass.ONCE_ONLY);
        assertThat(PublicationStep.FIRST_COMMENT.followsPost()).isTrue();
        assertThat(PublicationStep.FIRST_COMMENT.outcomeRestsOnIt()).isFalse();
        assertThat(PublicationStep.UPDATE_POST.converges()).isTrue();
        assertThat(PublicationStep.DELETE_POST.converges()).isTrue();
        assertThat(PublicationStep.declared()).extracting(PublicationStep::wireName)
                .contains("upload_media", "create_post", "first_comment", "update_post", "delete_post");
    }

    @Test
    void aViewStepShowsItsKindsRulesAndReadsBackWithOrWithoutThem() throws Exception {
        PublicationView.Step step = new PublicationView.Step(PublicationStep.FIRST_COMMENT, null,
                PublicationView.StepStatus.PENDING, null, 0, null, List.of());
        String json = STRICT.writeValueAsString(step);
        assertThat(json).contains("\"step\":\"first_comment\"", "\"stepClass\":\"ONCE_ONLY\"",
                "\"stepRole\":\"FOLLOWS_POST\"", "\"stepLabel\":\"first comment\"");
        assertThat(STRICT.readValue(json, PublicationView.Step.class)).isEqualTo(step);
        // a step as stored before kinds had rules in the view
        assertThat(STRICT.readValue("{\"step\":\"first_comment\",\"mediaId\":null,\"status\":\"PENDING\","
                + "\"providerRef\":null,\"attempts\":0,\"detail\":null,\"attemptNos\":[]}", PublicationView.Step.class))
                .isEqualTo(step);
    }

    @Test
    void aRequestPlansUploadsThePostAndTheCommentWithTheCoreKinds() {
        Content content = new Content(null, "x", null, List.of(new ContentMedia(RED, null)), "First!");
        assertThat(PublicationStep.plan(PublicationAction.PUBLISH, content, null))
                .extracting(PublicationStep.Planned::kind)
                .containsExactly(PublicationStep.UPLOAD_MEDIA, PublicationStep.CREATE_POST,
                        PublicationStep.FIRST_COMMENT);
        assertThat(PublicationStep.plan(PublicationAction.DELETE, content, null))
                .extracting(PublicationStep.Planned::kind).containsExactly(PublicationStep.DELETE_POST);
        assertThat(PublicationStep.plan(PublicationAction.UPDATE, content, null))
                .extracting(PublicationStep.Planned::kind)
                .containsExactly(PublicationStep.UPLOAD_MEDIA, PublicationStep.UPDATE_POST);
    }
}
