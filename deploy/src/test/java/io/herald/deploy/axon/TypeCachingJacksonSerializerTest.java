package io.herald.deploy.axon;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.contracts.id.PublicationId;
import org.axonframework.serialization.AnnotationRevisionResolver;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.SimpleSerializedObject;
import org.axonframework.serialization.SimpleSerializedType;
import org.axonframework.serialization.UnknownSerializedType;
import org.axonframework.serialization.json.JacksonSerializer;
import org.junit.jupiter.api.Test;

/** The serializer answers as Axon's own does, for known, unknown and empty types, every time it is asked. */
class TypeCachingJacksonSerializerTest {

    private final TypeCachingJacksonSerializer serializer = new TypeCachingJacksonSerializer(
            JacksonSerializer.builder().revisionResolver(new AnnotationRevisionResolver())
                    .objectMapper(new ObjectMapper()));

    @Test
    void resolvesEachTypeAsAxonDoesAndAgainFromWhatItKnows() {
        for (int round = 0; round < 2; round++) {
            assertThat(serializer.classForType(new SimpleSerializedType(PublicationId.class.getName(), null)))
                    .isEqualTo(PublicationId.class);
            assertThat(serializer.classForType(new SimpleSerializedType("io.herald.NoSuchEvent", "1")))
                    .isEqualTo(UnknownSerializedType.class);
            assertThat(serializer.classForType(SimpleSerializedType.emptyType())).isEqualTo(Void.class);
        }
    }

    @Test
    void readsBackWhatItWrote() {
        SerializedObject<byte[]> written = serializer.serialize(PublicationId.of("pub_" + "a".repeat(64)), byte[].class);
        PublicationId read = serializer.deserialize(written);
        assertThat(read).isEqualTo(PublicationId.of("pub_" + "a".repeat(64)));
        Object unknown = serializer.deserialize(new SimpleSerializedObject<>("{}".getBytes(), byte[].class,
                "io.herald.NoSuchEvent", "1"));
        assertThat(unknown).isInstanceOf(UnknownSerializedType.class);
    }
}
