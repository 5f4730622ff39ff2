package io.herald.command.channel;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.module.paramnames.ParameterNamesModule;
import io.herald.adapters.ChannelAdaptersConfiguration;
import io.herald.adapters.PluginProperties;
import io.herald.adapters.facebook.FacebookSettings;
import io.herald.adapters.linkedin.LinkedInSettings;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.wordpress.WordPressSettings;
import io.herald.contracts.channel.ChannelCapabilitiesProbedEvent;
import io.herald.contracts.channel.ChannelConnectionConfiguredEvent;
import io.herald.contracts.channel.ChannelConnectionId;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.axonframework.eventhandling.GenericDomainEventEntry;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;
import org.axonframework.serialization.upcasting.event.EventUpcasterChain;
import org.axonframework.serialization.upcasting.event.InitialEventRepresentation;
import org.axonframework.serialization.upcasting.event.IntermediateEventRepresentation;
import org.junit.jupiter.api.Test;

/**
 * Connection events as the code before channel plug-ins stored them (revision 1: one settings record
 * with every provider's fields, untagged) read as each plug-in's own settings record, through the
 * upcaster and a mapper that knows the plug-ins' records, as the application's does; revision 2 (no
 * or an optional {@code verifyAfterSuccess}) reads as revision 3.
 */
class StoredConnectionEventsTest {

    /** As {@code AxonPersistenceConfiguration.defaultAxonObjectMapper}. */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(ChannelAdaptersConfiguration.create(PluginProperties.defaults(),
                    OutboundGuard.privateNetworksAllowed(), Clock.systemUTC()).jacksonModule())
            .addModule(new JavaTimeModule())
            .addModule(new ParameterNamesModule())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .build();
    private final Serializer serializer = JacksonSerializer.builder().objectMapper(MAPPER).build();
    private final EventUpcasterChain upcasters =
            new EventUpcasterChain(new ChannelConnectionConfiguredEvent_1_to_2Upcaster(),
                    new ChannelCapabilitiesProbedEvent_1_to_2Upcaster(),
                    new ChannelConnectionConfiguredEvent_2_to_3Upcaster());

    @Test
    void aFacebookConnectionOfRevision1ReadsAsFacebookSettings() throws IOException {
        ChannelConnectionConfiguredEvent event = read("ChannelConnectionConfiguredEvent_1_facebook.json");
        assertThat(event.type()).isEqualTo(ChannelType.of("facebook"));
        assertThat(event.settings()).isEqualTo(new FacebookSettings("100200300400500", true));
        assertThat(event.credentialVersion()).isEqualTo(2);
        assertThat(event.configuredAt()).isEqualTo(Instant.parse("2026-12-01T09:30:00.123456789Z"));
        // stored before connections verified after success: it does not
        assertThat(event.verifyAfterSuccess()).isFalse();
    }

    @Test
    void aConnectionOfRevision2WithoutTheVerifyFieldDoesNotVerify() throws IOException {
        ChannelConnectionConfiguredEvent event = upcast(ChannelConnectionConfiguredEvent.class, "2",
                fixture("ChannelConnectionConfiguredEvent_2_bluesky.json"));
        assertThat(event.type()).isEqualTo(ChannelType.of("bluesky"));
        assertThat(event.verifyAfterSuccess()).isFalse();
    }

    @Test
    void aConnectionOfRevision2KeepsWhatItSaidAboutVerifyingAndNullReadsAsNo() throws IOException {
        String stored = fixture("ChannelConnectionConfiguredEvent_2_mastodon_verifying.json");
        assertThat(upcast(ChannelConnectionConfiguredEvent.class, "2", stored).verifyAfterSuccess()).isTrue();
        String optional = stored.replace("\"verifyAfterSuccess\":true", "\"verifyAfterSuccess\":null");
        assertThat(optional).isNotEqualTo(stored);
        assertThat(upcast(ChannelConnectionConfiguredEvent.class, "2", optional).verifyAfterSuccess()).isFalse();
    }

    @Test
    void aConnectionOfRevision3IsReadAsWritten() throws IOException {
        ChannelConnectionConfiguredEvent written = new ChannelConnectionConfiguredEvent(
                ChannelConnectionId.of(new WorkspaceId("acme"), new ChannelId("fb-main")),
                new WorkspaceId("acme"), new ChannelId("fb-main"),
                ChannelType.of("facebook"), new FacebookSettings("100200300400500", true), 3, false,
                "admin@k_5f1e2d3c4b5a6978", Instant.parse("2026-12-06T09:30:00Z"), true);
        String json = MAPPER.writeValueAsString(written);
        assertThat(upcast(ChannelConnectionConfiguredEvent.class, "3", json)).isEqualTo(written);
    }

    @Test
    void aLinkedInConnectionOfRevision1ReadsAsLinkedInSettings() throws IOException {
        ChannelConnectionConfiguredEvent event = read("ChannelConnectionConfiguredEvent_1_linkedin.json");
        assertThat(event.settings()).isEqualTo(
                new LinkedInSettings("urn:li:person:demo-reader", List.of("w_member_social", "r_member_social")));
        assertThat(event.autoReattemptAfterNotFound()).isTrue();
    }

    @Test
    void aWordPressConnectionOfRevision1ReadsAsWordPressSettings() throws IOException {
        ChannelConnectionConfiguredEvent event = read("ChannelConnectionConfiguredEvent_1_wordpress.json");
        assertThat(event.settings()).isEqualTo(new WordPressSettings("https://blog.example", "editor"));
    }

    @Test
    void aProbeOfRevision1ReadsWithTheRetrySafetyItsReadBackGives() throws IOException {
        ChannelCapabilitiesProbedEvent probed = read(ChannelCapabilitiesProbedEvent.class,
                "ChannelCapabilitiesProbedEvent_1.json");
        assertThat(probed.reconcile().available()).isFalse();
        assertThat(probed.retrySafety()).isEqualTo(RetrySafety.NONE);
        String readable = fixture("ChannelCapabilitiesProbedEvent_1.json").replace(
                "\"available\":false,\"reason\":\"missing r_member_social\"", "\"available\":true,\"reason\":null");
        ChannelCapabilitiesProbedEvent reading = upcast(ChannelCapabilitiesProbedEvent.class, readable);
        assertThat(reading.retrySafety()).isEqualTo(RetrySafety.READ_BACK);
    }

    @Test
    void settingsAreWrittenWithTheirTypeAndReadBackAsTheSameRecord() throws IOException {
        ChannelSettings settings = new LinkedInSettings("urn:li:organization:42", List.of("w_organization_social"));
        String json = MAPPER.writerFor(ChannelSettings.class).writeValueAsString(settings);
        assertThat(MAPPER.readTree(json).get("type").asText()).isEqualTo("linkedin");
        assertThat(MAPPER.readValue(json, ChannelSettings.class)).isEqualTo(settings);
        // written as the record itself (as a projection's row writer does), the tag is there too
        assertThat(MAPPER.readTree(MAPPER.writeValueAsString(settings)).get("type").asText()).isEqualTo("linkedin");
    }

    private ChannelConnectionConfiguredEvent read(String file) throws IOException {
        return read(ChannelConnectionConfiguredEvent.class, file);
    }

    private <T> T read(Class<T> type, String file) throws IOException {
        return upcast(type, fixture(file));
    }

    /** Reads a revision 1 payload through the upcasters. */
    private <T> T upcast(Class<T> type, String json) {
        return upcast(type, "1", json);
    }

    /** Reads a payload of the given stored revision through the upcasters. */
    private <T> T upcast(Class<T> type, String revision, String json) {
        IntermediateEventRepresentation upcast = upcasters.upcast(Stream.of(new InitialEventRepresentation(
                new GenericDomainEventEntry<>("ChannelConnection", "chn_acme/x", 0, "event-1",
                        Instant.parse("2026-12-01T09:30:00Z"), type.getName(), revision,
                        json.getBytes(StandardCharsets.UTF_8), "{}".getBytes(StandardCharsets.UTF_8)),
                serializer))).findFirst().orElseThrow();
        assertThat(upcast.getType().getRevision())
                .isEqualTo(type == ChannelConnectionConfiguredEvent.class ? "3" : "2");
        return serializer.deserialize(upcast.getData());
    }

    private static String fixture(String file) throws IOException {
        try (InputStream in = StoredConnectionEventsTest.class.getResourceAsStream("/stored-events/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        }
    }
}
