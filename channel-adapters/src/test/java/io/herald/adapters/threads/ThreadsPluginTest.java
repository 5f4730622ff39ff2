package io.herald.adapters.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.adapters.http.ProviderHttp;
import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ConnectFlow;
import io.herald.adapters.port.PublicMediaLinks;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStep;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThreadsPluginTest {

    /** Herald's public address, set or not. */
    private record Links(boolean available) implements PublicMediaLinks {

        @Override
        public URI linkFor(WorkspaceId workspace, MediaId media, PublicationId publication) {
            return URI.create("https://herald.example/media/public/t");
        }

        @Override
        public URI jpegLinkFor(WorkspaceId workspace, MediaId media, PublicationId publication) {
            return linkFor(workspace, media, publication);
        }
    }

    private static ThreadsPlugin plugin(boolean publicAddress) {
        return new ThreadsPlugin(new ThreadsAdapter(new ProviderHttp("threads", Duration.ofSeconds(1),
                Duration.ofSeconds(1), Clock.systemUTC()), "https://graph.threads.net/v1.0", Duration.ofSeconds(1)),
                () -> new Links(publicAddress), 500, Duration.ofDays(1), new ConnectFlow.Form(null));
    }

    @Test
    void aConnectionIsRefusedWhileHeraldHasNoPublicAddress() {
        assertThatThrownBy(() -> plugin(false).connect(Json.object().put("threadsUserId", "123")
                .put("accessToken", "tok"), null))
                .isInstanceOfSatisfying(HeraldRejection.class, r -> {
                    assertThat(r.violations()).extracting(v -> v.field()).containsExactly("type");
                    assertThat(r.violations().get(0).message()).contains("herald.public-base-url");
                });
        ChannelPlugin.Connection made = plugin(true).connect(Json.object().put("threadsUserId", "123")
                .put("accessToken", "tok"), null);
        assertThat(made.settings()).isEqualTo(new ThreadsSettings("123"));
        assertThat(made.secrets().toString()).doesNotContain("tok");
    }

    @Test
    void anotherUserNeedsItsTokenAgain() {
        ThreadsPlugin plugin = plugin(true);
        ChannelPlugin.Connection made = plugin.connect(Json.object().put("threadsUserId", "123")
                .put("accessToken", "tok"), null);
        assertThatThrownBy(() -> plugin.connect(Json.object().put("threadsUserId", "456"), made))
                .isInstanceOfSatisfying(HeraldRejection.class, r -> assertThat(r.violations())
                        .extracting(v -> v.field()).containsExactly("accessToken"));
        assertThatThrownBy(() -> plugin.connect(Json.object().put("threadsUserId", "@me")
                .put("accessToken", "tok"), null)).isInstanceOf(HeraldRejection.class);
    }

    @Test
    void aPostIsAContainerAndItsPublishWithoutEdits() {
        ThreadsPlugin plugin = plugin(true);
        assertThat(plugin.stepKinds(PublicationAction.PUBLISH)).containsExactly(ThreadsPlugin.CREATE_CONTAINER,
                ThreadsPlugin.PUBLISH_CONTAINER, PublicationStep.FIRST_COMMENT);
        assertThat(ThreadsPlugin.CREATE_CONTAINER.preparesOncePerPost()).isTrue();
        assertThat(plugin.unsupported(PublicationAction.UPDATE, new Content(null, "x", null)))
                .hasValueSatisfying(v -> assertThat(v.field()).isEqualTo("action"));
        assertThat(plugin.unsupported(PublicationAction.PUBLISH, new Content(null, "x", null))).isEmpty();
        assertThat(plugin.quotas()).singleElement().satisfies(q -> assertThat(q.capacity()).isEqualTo(500));
    }

    @Test
    void textAndImagesAreCheckedAgainstThreadsLimits() {
        ThreadsAdapter adapter = (ThreadsAdapter) plugin(true).adapter();
        assertThat(adapter.validate(new Content(null, "é".repeat(500), null), PublicationAction.PUBLISH)).isEmpty();
        assertThat(adapter.validate(new Content(null, "a".repeat(501), null), PublicationAction.PUBLISH))
                .extracting(v -> v.field()).containsExactly("content.body");
        List<ContentMedia> many = new ArrayList<>();
        for (int i = 0; i < 21; i++) {
            many.add(new ContentMedia(MediaId.of("med_" + String.format("%064x", i + 1)), null));
        }
        assertThat(adapter.validate(new Content(null, "many", null, many, null), PublicationAction.PUBLISH))
                .extracting(v -> v.field()).containsExactly("content.media");
        assertThat(adapter.validate(new Content(null, "reply", null, List.of(), "b".repeat(501)),
                PublicationAction.PUBLISH)).extracting(v -> v.field()).containsExactly("content.firstComment");
    }
}
