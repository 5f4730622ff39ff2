package io.herald.command.media;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ImageInspectorTest {

    @Test
    void readsTheSizeOfEachType() throws Exception {
        assertThat(ImageInspector.inspect(TestImages.png(7, 3), ImageType.PNG))
                .isEqualTo(new ImageInspector.Dimensions(7, 3));
        assertThat(ImageInspector.inspect(TestImages.image("jpg", 40, 21), ImageType.JPEG))
                .isEqualTo(new ImageInspector.Dimensions(40, 21));
        assertThat(ImageInspector.inspect(TestImages.image("gif", 5, 9), ImageType.GIF))
                .isEqualTo(new ImageInspector.Dimensions(5, 9));
    }

    @Test
    void readsWebPThroughItsReaderLibrary() throws Exception {
        assertThat(ImageInspector.canRead(ImageType.WEBP)).isTrue();
        assertThat(ImageInspector.inspect(TestImages.WEBP_LOSSLESS_1X1, ImageType.WEBP))
                .isEqualTo(new ImageInspector.Dimensions(1, 1));
        assertThat(ImageInspector.inspect(TestImages.WEBP_LOSSY_1X1, ImageType.WEBP))
                .isEqualTo(new ImageInspector.Dimensions(1, 1));
    }

    @Test
    void aLargeImageIsCheckedWithoutHoldingItDecoded() throws Exception {
        assertThat(ImageInspector.inspect(TestImages.png(3000, 2000), ImageType.PNG))
                .isEqualTo(new ImageInspector.Dimensions(3000, 2000));
    }

    @Test
    void refusesAValidHeaderOverUndecodableData() {
        assertThatThrownBy(() -> ImageInspector.inspect(TestImages.pngHeaderOverGarbage(), ImageType.PNG))
                .isInstanceOf(ImageInspector.InvalidImage.class)
                .hasMessage("the body is not a decodable image/png image");
    }

    @Test
    void refusesATruncatedImage() {
        byte[] png = TestImages.png(200, 200);
        assertThatThrownBy(() -> ImageInspector.inspect(Arrays.copyOf(png, png.length / 2), ImageType.PNG))
                .isInstanceOf(ImageInspector.InvalidImage.class);
        byte[] jpeg = TestImages.image("jpg", 50, 50);
        assertThatThrownBy(() -> ImageInspector.inspect(Arrays.copyOf(jpeg, 20), ImageType.JPEG))
                .isInstanceOf(ImageInspector.InvalidImage.class);
        assertThatThrownBy(() -> ImageInspector.inspect(Arrays.copyOf(TestImages.WEBP_LOSSY_1X1, 20), ImageType.WEBP))
                .isInstanceOf(ImageInspector.InvalidImage.class);
    }

    @Test
    void refusesAnImageClaimingMorePixelsThanAnyProviderTakes() {
        assertThatThrownBy(() -> ImageInspector.inspect(TestImages.pngClaiming(100_000, 100_000), ImageType.PNG))
                .isInstanceOf(ImageInspector.InvalidImage.class)
                .hasMessageContaining("more than " + ImageInspector.MAX_PIXELS + " pixels (100000 x 100000)");
    }
}
