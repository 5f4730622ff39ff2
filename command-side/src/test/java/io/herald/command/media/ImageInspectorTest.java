package io.herald.command.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.id.WorkspaceId;
import java.time.Duration;
import java.util.Arrays;
import org.assertj.core.api.Condition;
import org.junit.jupiter.api.Test;

class ImageInspectorTest {

    private static final WorkspaceId WS = new WorkspaceId("ws-images");
    private final ImageInspector inspector = new ImageInspector(16_384,
            new DecodeSlots(2, 64L * 1024 * 1024, Duration.ofSeconds(2)));

    private ImageInspector.Dimensions inspect(byte[] bytes, ImageType type) throws ImageInspector.InvalidImage {
        return inspector.inspect(WS, bytes, type);
    }

    private static Condition<Throwable> code(ErrorCode code) {
        return new Condition<>(t -> t instanceof ImageInspector.InvalidImage invalid && invalid.code() == code,
                "refused with " + code);
    }

    @Test
    void refusesASideOverTheLimitFromTheHeaderAlone() {
        // the 140 KB shape that made rows of 145 MB: refused before any reader allocates
        assertThatThrownBy(() -> inspect(TestImages.pngClaiming(36_152_320, 1), ImageType.PNG))
                .is(code(ErrorCode.MEDIA_UNREADABLE))
                .hasMessageContaining("36152320").hasMessageContaining("herald.media.max-side");
        assertThatThrownBy(() -> inspect(TestImages.pngClaiming(1, 16_385), ImageType.PNG))
                .is(code(ErrorCode.MEDIA_UNREADABLE));
        assertThatThrownBy(() -> inspect(TestImages.jpegClaiming(TestImages.image("jpg", 40, 21), 65_000, 2),
                ImageType.JPEG)).is(code(ErrorCode.MEDIA_UNREADABLE));
        assertThatThrownBy(() -> inspect(TestImages.gifWithScreen(60_000, 2), ImageType.GIF))
                .is(code(ErrorCode.MEDIA_UNREADABLE));
        assertThatThrownBy(() -> inspect(TestImages.gifWithFrame(65_535, 1), ImageType.GIF))
                .is(code(ErrorCode.MEDIA_UNREADABLE));
        assertThatThrownBy(() -> inspect(TestImages.webpWithCanvas(16_000_000, 3), ImageType.WEBP))
                .is(code(ErrorCode.MEDIA_UNREADABLE));
    }

    @Test
    void aSideAtTheLimitIsTaken() throws Exception {
        ImageInspector small = new ImageInspector(64, new DecodeSlots(1, 1024 * 1024, Duration.ofSeconds(1)));
        assertThat(small.inspect(WS, TestImages.png(64, 10), ImageType.PNG))
                .isEqualTo(new ImageInspector.Dimensions(64, 10));
        assertThatThrownBy(() -> small.inspect(WS, TestImages.png(65, 10), ImageType.PNG))
                .is(code(ErrorCode.MEDIA_UNREADABLE));
    }

    @Test
    void aCheckThatFindsNoSlotInTimeIsRefused() throws Exception {
        DecodeSlots slots = new DecodeSlots(1, 1024 * 1024, Duration.ofMillis(200));
        try (DecodeSlots.Slot held = slots.take(new WorkspaceId("other"), 1000)) {
            ImageInspector busy = new ImageInspector(16_384, slots);
            assertThatThrownBy(() -> busy.inspect(WS, TestImages.png(4, 4), ImageType.PNG))
                    .isInstanceOf(DecodeSlots.Busy.class);
        }
        assertThat(new ImageInspector(16_384, slots).inspect(WS, TestImages.png(4, 4), ImageType.PNG))
                .isEqualTo(new ImageInspector.Dimensions(4, 4));
    }

    @Test
    void aWorkspaceDecodesOneImageAtATime() {
        DecodeSlots slots = new DecodeSlots(2, 1024 * 1024, Duration.ofMillis(200));
        try (DecodeSlots.Slot held = slots.take(WS, 1000)) {
            assertThatThrownBy(() -> slots.take(WS, 1000)).isInstanceOf(DecodeSlots.Busy.class);
            slots.take(new WorkspaceId("another"), 1000).close();
        }
    }

    @Test
    void readsTheSizeOfEachType() throws Exception {
        assertThat(inspect(TestImages.png(7, 3), ImageType.PNG))
                .isEqualTo(new ImageInspector.Dimensions(7, 3));
        assertThat(inspect(TestImages.image("jpg", 40, 21), ImageType.JPEG))
                .isEqualTo(new ImageInspector.Dimensions(40, 21));
        assertThat(inspect(TestImages.image("gif", 5, 9), ImageType.GIF))
                .isEqualTo(new ImageInspector.Dimensions(5, 9));
    }

    @Test
    void readsWebPThroughItsReaderLibrary() throws Exception {
        assertThat(ImageInspector.canRead(ImageType.WEBP)).isTrue();
        assertThat(inspect(TestImages.WEBP_LOSSLESS_1X1, ImageType.WEBP))
                .isEqualTo(new ImageInspector.Dimensions(1, 1));
        assertThat(inspect(TestImages.WEBP_LOSSY_1X1, ImageType.WEBP))
                .isEqualTo(new ImageInspector.Dimensions(1, 1));
    }

    @Test
    void aLargeImageIsCheckedWithoutHoldingItDecoded() throws Exception {
        assertThat(inspect(TestImages.png(3000, 2000), ImageType.PNG))
                .isEqualTo(new ImageInspector.Dimensions(3000, 2000));
    }

    @Test
    void refusesAValidHeaderOverUndecodableData() {
        assertThatThrownBy(() -> inspect(TestImages.pngHeaderOverGarbage(), ImageType.PNG))
                .isInstanceOf(ImageInspector.InvalidImage.class)
                .hasMessage("the body is not a decodable image/png image");
    }

    @Test
    void refusesATruncatedImage() {
        byte[] png = TestImages.png(200, 200);
        assertThatThrownBy(() -> inspect(Arrays.copyOf(png, png.length / 2), ImageType.PNG))
                .isInstanceOf(ImageInspector.InvalidImage.class);
        byte[] jpeg = TestImages.image("jpg", 50, 50);
        assertThatThrownBy(() -> inspect(Arrays.copyOf(jpeg, 20), ImageType.JPEG))
                .isInstanceOf(ImageInspector.InvalidImage.class);
        assertThatThrownBy(() -> inspect(Arrays.copyOf(TestImages.WEBP_LOSSY_1X1, 20), ImageType.WEBP))
                .isInstanceOf(ImageInspector.InvalidImage.class);
    }

    @Test
    void refusesAnImageClaimingMorePixelsThanAnyProviderTakes() {
        assertThatThrownBy(() -> inspect(TestImages.pngClaiming(10_000, 5_000), ImageType.PNG))
                .is(code(ErrorCode.MEDIA_INVALID))
                .hasMessageContaining("more than " + ImageInspector.MAX_PIXELS + " pixels (10000 x 5000)");
    }
}
