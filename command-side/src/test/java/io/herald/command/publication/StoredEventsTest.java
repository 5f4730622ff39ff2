package io.herald.command.publication;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.module.paramnames.ParameterNamesModule;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.publication.AttemptTrigger;
import io.herald.contracts.publication.FailureKind;
import io.herald.contracts.publication.PublicationAttemptedEvent;
import io.herald.contracts.publication.PublicationExecutionRequestedEvent;
import io.herald.contracts.publication.PublicationFailedEvent;
import io.herald.contracts.publication.PublicationNextStepDueEvent;
import io.herald.contracts.publication.PublicationOutcomeUnknownEvent;
import io.herald.contracts.publication.PublicationReconciledEvent;
import io.herald.contracts.publication.PublicationRequestedEvent;
import io.herald.contracts.publication.PublicationResendDueEvent;
import io.herald.contracts.publication.PublicationStep;
import io.herald.contracts.publication.PublicationStepSkippedEvent;
import io.herald.contracts.publication.PublicationSucceededEvent;
import io.herald.contracts.publication.OperatorDecision;
import io.herald.contracts.publication.ProviderRef;
import io.herald.contracts.publication.PublicationVanishDecidedEvent;
import io.herald.contracts.publication.PublicationVanishedEvent;
import io.herald.contracts.publication.PublicationVerificationDueEvent;
import io.herald.contracts.publication.PublicationVerifiedEvent;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.contracts.publication.UnknownCause;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.stream.Stream;
import org.axonframework.eventhandling.GenericDomainEventEntry;
import org.axonframework.serialization.Revision;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.axonframework.serialization.upcasting.event.EventUpcasterChain;
import org.axonframework.serialization.upcasting.event.InitialEventRepresentation;
import org.axonframework.serialization.upcasting.event.IntermediateEventRepresentation;
import org.junit.jupiter.api.Test;

/**
 * Events as Herald stored them before the lean core (JSON fixtures in {@code stored-events/}, taken
 * from an event store the earlier code wrote, the execution request written in its revision 1
 * form) are read by today's classes through the upcaster chain, with the application's mapper.
 */
class StoredEventsTest {

    /** As {@code AxonPersistenceConfiguration.defaultAxonObjectMapper}. */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .addModule(new ParameterNamesModule())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .build();
    private final Serializer serializer = JacksonSerializer.builder().objectMapper(MAPPER).build();
    private final EventUpcasterChain upcasters =
            new EventUpcasterChain(new PublicationExecutionRequestedEvent_1_to_2Upcaster(),
                    new PublicationAttemptedEvent_1_to_2Upcaster(), new PublicationRequestedEvent_1_to_2Upcaster(),
                    new PublicationReconciledEvent_1_to_2Upcaster(), new PublicationRequestedEvent_2_to_3Upcaster(),
                    new PublicationSucceededEvent_1_to_2Upcaster());

    @Test
    void anExecutionRequestOfRevision1ReadsAsAttemptZeroTheNextOne() throws IOException {
        IntermediateEventRepresentation upcast = upcast(PublicationExecutionRequestedEvent.class, "1",
                "PublicationExecutionRequestedEvent_1.json");
        assertThat(upcast.getType().getRevision()).isEqualTo("2");
        PublicationExecutionRequestedEvent event = serializer.deserialize(upcast.getData());
        assertThat(event.attemptNo()).isZero();
        assertThat(event.trigger()).isEqualTo(AttemptTrigger.OPERATOR_REATTEMPT);
        assertThat(event.requestedBy()).isEqualTo("olga");
        assertThat(event.requestedAt()).isEqualTo(Instant.parse("2026-12-01T09:32:00.045352185Z"));
    }

    @Test
    void anExecutionRequestOfRevision2IsLeftAsItIs() throws IOException {
        String revision2 = fixture("PublicationExecutionRequestedEvent_1.json").replace("}", ",\"attemptNo\":3}");
        IntermediateEventRepresentation upcast = upcasters.upcast(Stream.of(initial(
                PublicationExecutionRequestedEvent.class, "2", revision2))).findFirst().orElseThrow();
        PublicationExecutionRequestedEvent event = serializer.deserialize(upcast.getData());
        assertThat(event.attemptNo()).isEqualTo(3);
    }

    @Test
    void aRequestOfRevision1HasNoImagesAndNoCommentAndItsHashIsUnchanged() throws IOException {
        IntermediateEventRepresentation upcast = upcast(PublicationRequestedEvent.class, "1",
                "PublicationRequestedEvent_1.json");
        assertThat(upcast.getType().getRevision()).isEqualTo("3");
        PublicationRequestedEvent requested = serializer.deserialize(upcast.getData());
        assertThat(requested.steps()).as("planned with the core kinds").isNull();
        assertThat(requested.content().body()).isEqualTo("Webhook crash post 0");
        assertThat(requested.content().media()).isEmpty();
        assertThat(requested.content().firstComment()).isNull();
        assertThat(requested.scheduledAt()).isNull();
        // the same request sent again after the upgrade must still match the stored hash
        assertThat(requested.content().hash()).isEqualTo(requested.contentHash());
    }

    @Test
    void anAttemptOfRevision1CreatedThePost() throws IOException {
        IntermediateEventRepresentation upcast = upcast(PublicationAttemptedEvent.class, "1",
                "PublicationAttemptedEvent_1.json");
        assertThat(upcast.getType().getRevision()).isEqualTo("2");
        PublicationAttemptedEvent attempted = serializer.deserialize(upcast.getData());
        assertThat(attempted.step()).isEqualTo(PublicationStep.CREATE_POST);
        assertThat(attempted.mediaId()).isNull();
        assertThat(attempted.attemptNo()).isEqualTo(1);
        assertThat(attempted.expiresAt()).isEqualTo(Instant.parse("2026-12-01T09:31:18.045352185Z"));
        // written when expiries were deadlines: the deadline's id is still read, and no longer used
        assertThat(attempted.expiryDeadlineId()).isEqualTo("95319f23-24f1-4261-8388-31c4eedcc82d");
    }

    @Test
    void theOtherStoredEventsReadUnchanged() throws IOException {
        PublicationFailedEvent failed = read(PublicationFailedEvent.class, "PublicationFailedEvent_1.json");
        assertThat(failed.kind()).isEqualTo(FailureKind.NOT_SENT);
        assertThat(failed.retryAt()).isEqualTo(Instant.parse("2026-12-01T09:31:10.045352185Z"));
        assertThat(read(PublicationOutcomeUnknownEvent.class, "PublicationOutcomeUnknownEvent_1.json").cause())
                .isEqualTo(UnknownCause.INTERRUPTED);
    }

    @Test
    void aSuccessOfRevision1ReadsWithoutANote() throws IOException {
        IntermediateEventRepresentation upcast = upcast(PublicationSucceededEvent.class, "1",
                "PublicationSucceededEvent_1.json");
        assertThat(upcast.getType().getRevision()).isEqualTo("2");
        PublicationSucceededEvent succeeded = serializer.deserialize(upcast.getData());
        assertThat(succeeded.providerRef().id()).isEqualTo("775961448_1000002");
        assertThat(succeeded.attemptNo()).isEqualTo(1);
        assertThat(succeeded.note()).isNull();
    }

    @Test
    void aSuccessOfRevision2KeepsItsNote() throws IOException {
        String stored = fixture("PublicationSucceededEvent_1.json").strip();
        String revision2 = stored.substring(0, stored.length() - 1)
                + ",\"note\":\"image converted to JPEG for Instagram\"}";
        IntermediateEventRepresentation upcast = upcasters.upcast(Stream.of(initial(
                PublicationSucceededEvent.class, "2", revision2))).findFirst().orElseThrow();
        PublicationSucceededEvent succeeded = serializer.deserialize(upcast.getData());
        assertThat(succeeded.note()).isEqualTo("image converted to JPEG for Instagram");
    }

    @Test
    void aReconciliationOfRevision1ClaimsNoCheckOfThePost() throws IOException {
        IntermediateEventRepresentation upcast = upcast(PublicationReconciledEvent.class, "1",
                "PublicationReconciledEvent_1.json");
        assertThat(upcast.getType().getRevision()).isEqualTo("2");
        PublicationReconciledEvent reconciled = serializer.deserialize(upcast.getData());
        assertThat(reconciled.result()).isEqualTo(ReconciliationResult.NOT_FOUND);
        assertThat(reconciled.attemptNo()).isEqualTo(2);
        assertThat(reconciled.verified()).isNull();
        assertThat(reconciled.unverified()).isFalse();
    }

    @Test
    void anOperatorsConfirmationOfRevision2KeepsWhetherItWasReadBack() throws IOException {
        String revision2 = fixture("PublicationReconciledEvent_1.json").replace("}", ",\"verified\":false}");
        IntermediateEventRepresentation upcast = upcasters.upcast(Stream.of(initial(
                PublicationReconciledEvent.class, "2", revision2))).findFirst().orElseThrow();
        PublicationReconciledEvent reconciled = serializer.deserialize(upcast.getData());
        assertThat(reconciled.unverified()).isTrue();
    }

    @Test
    void aRequestOfRevision2IsPlannedWithTheCoreStepKinds() throws IOException {
        IntermediateEventRepresentation upcast = upcast(PublicationRequestedEvent.class, "2",
                "PublicationRequestedEvent_2.json");
        assertThat(upcast.getType().getRevision()).isEqualTo("3");
        PublicationRequestedEvent requested = serializer.deserialize(upcast.getData());
        assertThat(requested.steps()).isNull();
        assertThat(PublicationStep.plan(requested.action(), requested.content(), requested.steps()))
                .extracting(PublicationStep.Planned::kind)
                .containsExactly(PublicationStep.UPLOAD_MEDIA, PublicationStep.CREATE_POST,
                        PublicationStep.FIRST_COMMENT);
    }

    @Test
    void storedStepsReadAsTheirStepKinds() throws IOException {
        PublicationAttemptedEvent upload = read(PublicationAttemptedEvent.class, "2",
                "PublicationAttemptedEvent_2_upload_media.json");
        assertThat(upload.step()).isSameAs(PublicationStep.UPLOAD_MEDIA);
        assertThat(upload.step().isRepeatable()).isTrue();
        assertThat(upload.mediaId()).isNotNull();
        PublicationAttemptedEvent comment = read(PublicationAttemptedEvent.class, "2",
                "PublicationAttemptedEvent_2_first_comment.json");
        assertThat(comment.step()).isSameAs(PublicationStep.FIRST_COMMENT);
        assertThat(comment.step().followsPost()).isTrue();
        assertThat(read(PublicationNextStepDueEvent.class, "PublicationNextStepDueEvent_1.json").step())
                .isSameAs(PublicationStep.FIRST_COMMENT);
        assertThat(read(PublicationStepSkippedEvent.class, "PublicationStepSkippedEvent_1.json").step())
                .isSameAs(PublicationStep.FIRST_COMMENT);
    }

    @Test
    void aStepWrittenAsAnEnumConstantNameReadsAsItsKind() throws IOException {
        String constantName = fixture("PublicationNextStepDueEvent_1.json").replace("\"first_comment\"",
                "\"FIRST_COMMENT\"");
        IntermediateEventRepresentation upcast = upcasters.upcast(Stream.of(initial(
                PublicationNextStepDueEvent.class, "1", constantName))).findFirst().orElseThrow();
        PublicationNextStepDueEvent due = serializer.deserialize(upcast.getData());
        assertThat(due.step()).isSameAs(PublicationStep.FIRST_COMMENT);
    }

    @Test
    void aStepKindIsWrittenAsItsWireNameAndReadBackAsTheSameKind() throws IOException {
        PublicationNextStepDueEvent due = read(PublicationNextStepDueEvent.class, "PublicationNextStepDueEvent_1.json");
        String written = MAPPER.writeValueAsString(due);
        assertThat(written).contains("\"step\":\"first_comment\"").doesNotContain("stepClass");
        assertThat(MAPPER.readValue(written, PublicationNextStepDueEvent.class)).isEqualTo(due);
    }

    @Test
    void theVerificationEventsReadAsWrittenAndWriteBackTheSame() throws IOException {
        ProviderRef post = new ProviderRef("100200300400500_7", "https://www.facebook.com/100200300400500_7");
        Instant read = Instant.parse("2026-12-01T09:42:01.5Z");
        PublicationVerificationDueEvent due = roundTrip(PublicationVerificationDueEvent.class,
                "PublicationVerificationDueEvent_1.json");
        assertThat(due.attemptNo()).isEqualTo(1);
        assertThat(due.dueAt()).isEqualTo(Instant.parse("2026-12-01T09:42:00Z"));
        assertThat(due.scheduledAt()).isEqualTo(Instant.parse("2026-12-01T09:32:00Z"));
        PublicationVerifiedEvent verified = roundTrip(PublicationVerifiedEvent.class, "PublicationVerifiedEvent_1.json");
        assertThat(verified.providerRef()).isEqualTo(post);
        assertThat(verified.verifiedAt()).isEqualTo(read);
        PublicationVanishedEvent vanished = roundTrip(PublicationVanishedEvent.class, "PublicationVanishedEvent_1.json");
        assertThat(vanished.providerRef()).isEqualTo(post);
        assertThat(vanished.detail()).contains("does not exist");
        assertThat(vanished.vanishedAt()).isEqualTo(read);
        PublicationVanishDecidedEvent decided = roundTrip(PublicationVanishDecidedEvent.class,
                "PublicationVanishDecidedEvent_1.json");
        assertThat(decided.decision()).isEqualTo(OperatorDecision.REPUBLISH);
        assertThat(decided.nextContentVersion()).isEqualTo(4L);
        assertThat(decided.decidedBy()).isEqualTo("olga");
    }

    @Test
    void aResendDueOfRevision1ReadsAsWrittenAndWritesBackTheSame() throws IOException {
        PublicationResendDueEvent due = roundTrip(PublicationResendDueEvent.class, "PublicationResendDueEvent_1.json");
        assertThat(PublicationResendDueEvent.class.getAnnotation(Revision.class).value()).isEqualTo("1");
        assertThat(due.publicationId().value()).startsWith("pub_3c5b1f0e");
        assertThat(due.unknownAttemptNo()).isEqualTo(1);
        assertThat(due.attemptNo()).isEqualTo(2);
        assertThat(due.step()).isSameAs(PublicationStep.CREATE_POST);
        assertThat(due.retrySafety()).isEqualTo(RetrySafety.CLIENT_ID);
        assertThat(due.idempotencyKey()).isEqualTo(due.publicationId().value());
        assertThat(due.originalStartedAt()).isEqualTo(Instant.parse("2026-12-01T09:32:00.045352185Z"));
        assertThat(due.resendUntil()).as("a record key is kept for good").isNull();
        assertThat(due.resendNo()).isEqualTo(1);
        assertThat(due.dueAt()).isEqualTo(Instant.parse("2026-12-01T09:32:31.5Z"));
    }

    /** Read at revision 1 through the chain, written with the mapper and read back: the same event, and the same JSON. */
    private <T> T roundTrip(Class<T> type, String file) throws IOException {
        T event = read(type, file);
        String written = MAPPER.writeValueAsString(event);
        assertThat(MAPPER.readTree(written)).isEqualTo(MAPPER.readTree(fixture(file)));
        assertThat(MAPPER.readValue(written, type)).isEqualTo(event);
        return event;
    }

    private <T> T read(Class<T> type, String revision, String file) throws IOException {
        IntermediateEventRepresentation upcast = upcast(type, revision, file);
        assertThat(upcast.getType().getRevision()).isEqualTo(revision);
        return serializer.deserialize(upcast.getData());
    }

    private <T> T read(Class<T> type, String file) throws IOException {
        IntermediateEventRepresentation upcast = upcast(type, "1", file);
        assertThat(upcast.getType().getRevision()).isEqualTo("1");
        return serializer.deserialize(upcast.getData());
    }

    private IntermediateEventRepresentation upcast(Class<?> type, String revision, String file) throws IOException {
        return upcasters.upcast(Stream.of(initial(type, revision, fixture(file)))).findFirst().orElseThrow();
    }

    private InitialEventRepresentation initial(Class<?> type, String revision, String json) {
        return new InitialEventRepresentation(new GenericDomainEventEntry<>("Publication", "pub_fixture", 3,
                "event-1", Instant.parse("2026-12-01T09:32:00Z"), type.getName(), revision,
                json.getBytes(StandardCharsets.UTF_8), "{}".getBytes(StandardCharsets.UTF_8)), serializer);
    }

    private static String fixture(String file) throws IOException {
        try (InputStream in = StoredEventsTest.class.getResourceAsStream("/stored-events/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
    }
}
