package io.herald.adapters.bluesky;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.contracts.id.PublicationId;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BlueskyKeysTest {

    private static final PublicationId ID = new PublicationId("pub_" + "ab".repeat(32));
    private static final Instant REQUESTED = Instant.parse("2026-12-04T10:15:30.123456789Z");

    @Test
    void thePostsKeyIsATidOfTheRequestTimeInMicrosecondsAndTheSameEveryTime() {
        BlueskyKeys.Key key = BlueskyKeys.post(ID, REQUESTED, null).orElseThrow();

        assertThat(BlueskyKeys.isTid(key.rkey())).isTrue();
        assertThat(BlueskyKeys.micros(key.rkey())).contains(REQUESTED.getEpochSecond() * 1_000_000L + 123_456L);
        assertThat(key.createdAt()).isEqualTo("2026-12-04T10:15:30.123456Z");
        assertThat(BlueskyKeys.post(ID, REQUESTED, null)).contains(key);
    }

    @Test
    void anotherPublicationRequestedInTheSameMicrosecondHasAnotherKey() {
        String one = BlueskyKeys.post(ID, REQUESTED, null).orElseThrow().rkey();
        String other = BlueskyKeys.post(new PublicationId("pub_" + "cd".repeat(32)), REQUESTED, null).orElseThrow()
                .rkey();

        assertThat(other).isNotEqualTo(one);
        assertThat(other.substring(0, 11)).isEqualTo(one.substring(0, 11));
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
