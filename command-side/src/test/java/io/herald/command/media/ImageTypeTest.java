package io.herald.command.media;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ImageTypeTest {

    @Test
    void recognisesEachAcceptedTypeByItsMagicNumber() {
        assertThat(ImageType.sniff(TestImages.png(3, 2))).contains(ImageType.PNG);
        assertThat(ImageType.sniff(TestImages.image("jpg", 3, 2))).contains(ImageType.JPEG);
        assertThat(ImageType.sniff(TestImages.image("gif", 3, 2))).contains(ImageType.GIF);
        assertThat(ImageType.sniff("GIF87a....".getBytes(StandardCharsets.US_ASCII))).contains(ImageType.GIF);
        assertThat(ImageType.sniff(TestImages.WEBP_LOSSLESS_1X1)).contains(ImageType.WEBP);
        assertThat(ImageType.sniff(TestImages.WEBP_LOSSY_1X1)).contains(ImageType.WEBP);
    }

    @Test
    void otherBytesAreNoAcceptedType() {
        assertThat(ImageType.sniff(new byte[0])).isEmpty();
        assertThat(ImageType.sniff(new byte[] {(byte) 0xFF, (byte) 0xD8})).isEmpty();
        assertThat(ImageType.sniff("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".getBytes(StandardCharsets.UTF_8)))
                .isEmpty();
        assertThat(ImageType.sniff("RIFF\0\0\0\0WAVEfmt ".getBytes(StandardCharsets.US_ASCII))).isEmpty();
        assertThat(ImageType.sniff("BM\0\0\0\0".getBytes(StandardCharsets.US_ASCII))).isEmpty();
        assertThat(ImageType.sniff("GIF88a".getBytes(StandardCharsets.US_ASCII))).isEmpty();
        // the PNG signature one byte short
        assertThat(ImageType.sniff(Arrays.copyOf(TestImages.png(1, 1), 7))).isEmpty();
    }

    @Test
    void theDeclaredTypeIsReadWithoutParametersOrCase() {
        assertThat(ImageType.declared("image/png")).contains(ImageType.PNG);
        assertThat(ImageType.declared("Image/JPEG; charset=binary")).contains(ImageType.JPEG);
        assertThat(ImageType.declared(" image/webp ")).contains(ImageType.WEBP);
        assertThat(ImageType.declared("image/svg+xml")).isEmpty();
        assertThat(ImageType.declared("image/bmp")).isEmpty();
        assertThat(ImageType.declared("application/json")).isEmpty();
        assertThat(ImageType.declared("image/pngx")).isEmpty();
        assertThat(ImageType.declared(null)).isEmpty();
    }
}
