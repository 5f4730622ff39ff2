package io.herald.adapters.instagram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.herald.adapters.ChannelAdaptersConfiguration;
import io.herald.adapters.PluginProperties;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.port.ChannelPlugin;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.adapters.port.PublicMediaLinks;
import io.herald.contracts.channel.ChannelSettings;
import io.herald.contracts.channel.RetrySafety;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.PublicationId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.channel.Capability;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.ContentMedia;
import io.herald.contracts.publication.PublicationAction;
import io.herald.contracts.publication.PublicationStep;
import io.herald.platform.wire.Json;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InstagramPluginTest {

    /** A Herald with a public address: the links themselves are not asked here. */
    private static final PublicMediaLinks PUBLIC = new PublicMediaLinks() {
        @Override
        public boolean available() {
            return true;
        }

        @Override
        public URI linkFor(WorkspaceId workspace, MediaId media, PublicationId publication) {
            return URI.create("https://herald.example/media/public/t");
        }

        @Override
        public URI jpegLinkFor(WorkspaceId workspace, MediaId media, PublicationId publication) {
            return URI.create("https://herald.example/media/public/j");
        }
    };

    private final ChannelPlugins plugins = ChannelAdaptersConfiguration.create(PluginProperties.defaults(),
            OutboundGuard.privateNetworksAllowed(), Clock.systemUTC(), () -> PUBLIC);
    private final ChannelPlugin plugin = plugins.plugin(InstagramPlugin.TYPE);

    @Test
    void aConnectionKeepsItsTokenAndNeedsTheTokenAgainForAnotherAccount() {
        ChannelPlugin.Connection made = plugin.connect(Json.object().put("igUserId", "17841400000000042")
                .put("accessToken", "t1"), null);
        assertThat(made.settings()).isEqualTo(new InstagramSettings("17841400000000042"));
        assertThat(made.secrets()).isEqualTo(new InstagramSecrets("t1", null));
        assertThat(made.secrets().toString()).doesNotContain("t1");

        assertThat(plugin.connect(Json.object(), made)).usingRecursiveComparison().isEqualTo(made);
        assertThatThrownBy(() -> plugin.connect(Json.object().put("igUserId", "17841400000000043"), made))
                .isInstanceOfSatisfying(HeraldRejection.class, r -> assertThat(r.violations())
                        .extracting(v -> v.field()).containsExactly("accessToken"));
        assertThatThrownBy(() -> plugin.connect(Json.object().put("igUserId", "not-a-number")
                .put("accessToken", "t"), null)).isInstanceOf(HeraldRejection.class);
    }

    @Test
    void withoutAPublicAddressNoConnectionIsMade() {
        ChannelPlugin without = ChannelAdaptersConfiguration.create(PluginProperties.defaults(),
                OutboundGuard.privateNetworksAllowed(), Clock.systemUTC()).plugin(InstagramPlugin.TYPE);

        assertThatThrownBy(() -> without.connect(Json.object().put("igUserId", "17841400000000042")
                .put("accessToken", "t1"), null))
                .isInstanceOfSatisfying(HeraldRejection.class, r -> assertThat(r.violations().get(0).message())
                        .contains("herald.public-base-url"));
    }

    @Test
    void settingsAreStoredUnderTheChannelsTag() throws Exception {
        ObjectMapper mapper = JsonMapper.builder().addModule(plugins.jacksonModule()).build();
        String json = mapper.writerFor(ChannelSettings.class).writeValueAsString(new InstagramSettings("1784"));
        assertThat(mapper.readTree(json).path("type").asText()).isEqualTo("instagram");
        assertThat(mapper.readValue(json, ChannelSettings.class)).isEqualTo(new InstagramSettings("1784"));
    }

    @Test
    void aPublishIsAContainerThenItsPublicationThenTheComment() {
        Content content = new Content(null, "Hello", null, List.of(new ContentMedia(media(1), null),
                new ContentMedia(media(2), "two")), "first!");
        assertThat(PublicationStep.plan(PublicationAction.PUBLISH, content,
                plugin.stepKinds(PublicationAction.PUBLISH))).extracting(PublicationStep.Planned::kind)
                .containsExactly(InstagramPlugin.CREATE_CONTAINER, InstagramPlugin.PUBLISH_CONTAINER,
                        PublicationStep.FIRST_COMMENT);
        assertThat(plugin.unsupported(PublicationAction.PUBLISH, content)).isEmpty();
        assertThat(plugin.retrySafety(Capability.unavailable("no"))).isEqualTo(RetrySafety.READ_BACK);
        assertThat(plugin.tokenRefresh()).isPresent();
        assertThat(plugin.imageTypes()).containsExactly("image/jpeg");
    }

    @Test
    void updatesAndDeletesAreNotSupported() {
        Content content = new Content(null, "Hello", null);
        assertThat(plugin.unsupported(PublicationAction.UPDATE, content)).hasValueSatisfying(
                v -> assertThat(v.field()).isEqualTo("action"));
        assertThat(plugin.unsupported(PublicationAction.DELETE, content)).isPresent();
        assertThat(plugin.unsupported(PublicationAction.DRAFT, content)).isPresent();
    }

    @Test
    void theLimitsNameTheirField() {
        List<ContentMedia> eleven = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            eleven.add(new ContentMedia(media(i), null));
        }
        assertThat(plugin.adapter().validate(new Content(null, "x".repeat(2_201), null, eleven, " "),
                PublicationAction.PUBLISH)).extracting(v -> v.field())
                .containsExactlyInAnyOrder("content.body", "content.media", "content.firstComment");
        assertThat(plugin.adapter().validate(new Content(null, "no image", null), PublicationAction.PUBLISH))
                .extracting(v -> v.field()).containsExactly("content.media");
        assertThat(plugin.adapter().validate(new Content(null, "x".repeat(2_200), null,
                List.of(new ContentMedia(media(1), null)), null), PublicationAction.PUBLISH)).isEmpty();
    }

    private static MediaId media(int i) {
        return MediaId.of("med_" + "0".repeat(62) + String.format("%02d", i));
    }
}
