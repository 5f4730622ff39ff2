package io.herald.adapters.bluesky;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.id.PublicationId;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BlueskyKeysTest {

    private static final PublicationId ID = new PublicationId("pub_" + "ab".repeat(32));
    private static final Instant REQUESTED = Instant.parse("2026-12-04T10:15:30.123456789Z");

    @Test
    void thePostsKeyIsATidWithinTheSecondOfTheRequestTimeAndTheSameEveryTime() {
        BlueskyKeys.Key key = BlueskyKeys.post(ID, REQUESTED, null).orElseThrow();

        assertThat(BlueskyKeys.isTid(key.rkey())).isTrue();
        assertThat(BlueskyKeys.micros(key.rkey()).orElseThrow() / 1_000_000L).isEqualTo(REQUESTED.getEpochSecond());
        assertThat(key.createdAt()).isEqualTo("2026-12-04T10:15:30.123456Z");
        assertThat(BlueskyKeys.post(ID, REQUESTED, null)).contains(key);
        // the derivation is part of the stored data: a re-send by a later version must send these bytes
        assertThat(key.rkey()).isEqualTo("3n3tknxp6h6d7");
    }

    @Test
    void theLegacyKeyIsTheRequestTimesOwnMicrosecondsAndTenBitsOfTheHash() {
        BlueskyKeys.Key legacy = BlueskyKeys.legacyPost(ID, REQUESTED, null).orElseThrow();

        assertThat(legacy.rkey()).isEqualTo("3n3tknxp7q2p7");
        assertThat(BlueskyKeys.micros(legacy.rkey())).contains(REQUESTED.getEpochSecond() * 1_000_000L + 123_456L);
        assertThat(legacy.createdAt()).isEqualTo(BlueskyKeys.post(ID, REQUESTED, null).orElseThrow().createdAt());
        assertThat(legacy.rkey()).isNotEqualTo(BlueskyKeys.post(ID, REQUESTED, null).orElseThrow().rkey());
    }

    @Test
    void anotherPublicationRequestedInTheSameMicrosecondHasAnotherKey() {
        String one = BlueskyKeys.post(ID, REQUESTED, null).orElseThrow().rkey();
        String other = BlueskyKeys.post(new PublicationId("pub_" + "cd".repeat(32)), REQUESTED, null).orElseThrow()
                .rkey();

        assertThat(other).isNotEqualTo(one);
        assertThat(BlueskyKeys.micros(other).orElseThrow() / 1_000_000L).isEqualTo(REQUESTED.getEpochSecond());
    }

    @Test
    void twoThousandPublicationsDueAtTheSameInstantHaveTwoThousandKeys() {
        Instant onTheMinute = Instant.parse("2026-12-24T18:00:00Z");
        Set<String> keys = new HashSet<>();
        Set<String> legacyKeys = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
            PublicationId id = new PublicationId("pub_" + String.format("%064x", i * 7_919L + 1));
            BlueskyKeys.Key key = BlueskyKeys.post(id, onTheMinute.minusSeconds(3_600), onTheMinute).orElseThrow();
            assertThat(BlueskyKeys.isTid(key.rkey())).isTrue();
            assertThat(BlueskyKeys.micros(key.rkey()).orElseThrow() / 1_000_000L)
                    .isEqualTo(onTheMinute.getEpochSecond());
            assertThat(key.createdAt()).isEqualTo("2026-12-24T18:00:00.000000Z");
            keys.add(key.rkey());
            legacyKeys.add(BlueskyKeys.legacyPost(id, onTheMinute.minusSeconds(3_600), onTheMinute).orElseThrow()
                    .rkey());
        }

        assertThat(keys).hasSize(2_000);
        // ten bits of clock id give at most 1,024 keys to one instant
        assertThat(legacyKeys).hasSizeLessThanOrEqualTo(1_024);
    }

    @Test
    void aLaterScheduleIsThePostsTimeAndAnEarlierOneIsNot() {
        Instant later = REQUESTED.plusSeconds(3600);

        assertThat(BlueskyKeys.post(ID, REQUESTED, later).orElseThrow().at())
                .isEqualTo(later.truncatedTo(java.time.temporal.ChronoUnit.MICROS));
        assertThat(BlueskyKeys.post(ID, REQUESTED, REQUESTED.minusSeconds(60)).orElseThrow().at())
                .isEqualTo(REQUESTED.truncatedTo(java.time.temporal.ChronoUnit.MICROS));
        assertThat(BlueskyKeys.post(ID, null, null)).isEmpty();
    }

    @Test
    void theFirstCommentsKeyIsAMicrosecondAfterThePosts() {
        String post = BlueskyKeys.post(ID, REQUESTED, null).orElseThrow().rkey();

        BlueskyKeys.Key comment = BlueskyKeys.comment(ID, post).orElseThrow();

        assertThat(comment.rkey()).isNotEqualTo(post).isGreaterThan(post);
        assertThat(BlueskyKeys.micros(comment.rkey())).contains(BlueskyKeys.micros(post).orElseThrow() + 1);
        assertThat(BlueskyKeys.comment(ID, "not-a-tid")).isEmpty();
    }

    @Test
    void decodesTheProtocolsExampleTid() {
        // the example of the AT Protocol's record key documentation
        long micros = BlueskyKeys.micros("3jzfcijpj2z2a").orElseThrow();

        assertThat(Instant.ofEpochSecond(micros / 1_000_000L)).isBetween(Instant.parse("2023-01-01T00:00:00Z"),
                Instant.parse("2024-01-01T00:00:00Z"));
    }
}
