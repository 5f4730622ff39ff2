package io.herald.command.media;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ImageHeaderTest {

    private static ImageHeader header(byte[] bytes, ImageType type) {
        return ImageHeader.read(bytes, type).orElseThrow();
    }

    @Test
    void readsAPngsSizeAndRowFromItsHeaderChunk() {
        ImageHeader png = header(TestImages.png(7, 3), ImageType.PNG);
        assertThat(png.width()).isEqualTo(7);
        assertThat(png.height()).isEqualTo(3);
        assertThat(png.largestSide()).isEqualTo(7);
        ImageHeader wide = header(TestImages.pngClaiming(36_152_320, 1), ImageType.PNG);
        assertThat(wide.largestSide()).isEqualTo(36_152_320);
        // the JDK writes 8-bit RGB: three bytes a pixel and the filter byte
        assertThat(wide.bytesPerRow()).isEqualTo(36_152_320L * 3 + 1);
        assertThat(header(TestImages.pngClaiming(-1, 1), ImageType.PNG).largestSide()).isEqualTo(0xFFFF_FFFFL);
    }

    @Test
    void readsAJpegsSizeFromItsFirstFrameHeader() {
        byte[] jpeg = TestImages.image("jpg", 40, 21);
        ImageHeader header = header(jpeg, ImageType.JPEG);
        assertThat(header.width()).isEqualTo(40);
        assertThat(header.height()).isEqualTo(21);
        assertThat(header.bytesPerRow()).isEqualTo(40 * 3);
        assertThat(header(TestImages.jpegClaiming(jpeg, 65_000, 2), ImageType.JPEG).largestSide()).isEqualTo(65_000);
    }

    @Test
    void aProgressiveJpegIsEstimatedWithAllItsCoefficients() {
        byte[] jpeg = TestImages.jpegClaiming(TestImages.image("jpg", 40, 21), 10_000, 3_000);
        long sequential = header(jpeg, ImageType.JPEG).decodeBytes();
        long progressive = header(TestImages.progressive(jpeg), ImageType.JPEG).decodeBytes();
        assertThat(progressive).isGreaterThan(10_000L * 3_000 * 3 * 2).isGreaterThan(sequential * 10);
    }

    @Test
    void readsAGifsScreenAndEveryFrame() {
        ImageHeader gif = header(TestImages.image("gif", 5, 9), ImageType.GIF);
        assertThat(gif.width()).isEqualTo(5);
        assertThat(gif.height()).isEqualTo(9);
        assertThat(header(TestImages.gifWithScreen(60_000, 2), ImageType.GIF).largestSide()).isEqualTo(60_000);
        ImageHeader frame = header(TestImages.gifWithFrame(65_535, 1), ImageType.GIF);
        assertThat(frame.width()).isEqualTo(65_535);
        assertThat(frame.largestSide()).isEqualTo(65_535);
    }

    @Test
    void readsEachKindOfWebP() {
        ImageHeader lossless = header(TestImages.WEBP_LOSSLESS_1X1, ImageType.WEBP);
        assertThat(lossless.width()).isEqualTo(1);
        assertThat(lossless.height()).isEqualTo(1);
        ImageHeader lossy = header(TestImages.WEBP_LOSSY_1X1, ImageType.WEBP);
        assertThat(lossy.width()).isEqualTo(1);
        ImageHeader extended = header(TestImages.webpWithCanvas(16_000_000, 3), ImageType.WEBP);
        assertThat(extended.width()).isEqualTo(16_000_000);
        assertThat(extended.largestSide()).isEqualTo(16_000_000);
        // a raster of four bytes a pixel, whatever the subsampling
        assertThat(extended.decodeBytes()).isGreaterThanOrEqualTo(4L * 16_000_000 * 3);
    }

    @Test
    void bytesWithoutTheHeaderTheirFormatNeedsHaveNone() {
        assertThat(ImageHeader.read(Arrays.copyOf(TestImages.png(4, 4), 20), ImageType.PNG)).isEmpty();
        assertThat(ImageHeader.read(new byte[] {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF, (byte) 0xDA, 0, 2},
                ImageType.JPEG)).isEmpty();
        assertThat(ImageHeader.read(Arrays.copyOf(TestImages.image("gif", 5, 9), 12), ImageType.GIF)).isEmpty();
        byte[] riffOnly = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN)
                .put(new byte[] {'R', 'I', 'F', 'F'}).putInt(4).put(new byte[] {'W', 'E', 'B', 'P'}).array();
        assertThat(ImageHeader.read(riffOnly, ImageType.WEBP)).isEmpty();
    }
}
