package io.herald.command.media;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.CRC32;
import javax.imageio.ImageIO;

/** Images made for tests: with ImageIO where the JDK writes the format, as byte literals where it does not. */
final class TestImages {

    /** A 1 x 1 lossless WebP (VP8L), the sample browsers use to detect WebP support. */
    static final byte[] WEBP_LOSSLESS_1X1 = Base64.getDecoder()
            .decode("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==");
    /** A 1 x 1 lossy WebP (VP8), from the same detection samples. */
    static final byte[] WEBP_LOSSY_1X1 = Base64.getDecoder()
            .decode("UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA");

    private TestImages() {
    }

    static byte[] image(String format, int width, int height) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        for (int x = 0; x < width; x++) {
            for (int y = 0; y < height; y++) {
                image.setRGB(x, y, new Color((x * 7) % 256, (y * 13) % 256, (x + y) % 256).getRGB());
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            if (!ImageIO.write(image, format, out)) {
                throw new IllegalStateException("no writer for " + format);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    static byte[] png(int width, int height) {
        return image("png", width, height);
    }

    /** A real PNG's signature and header chunk, then bytes that are no image data. */
    static byte[] pngHeaderOverGarbage() {
        byte[] header = Arrays.copyOf(png(64, 64), 8 + 25);
        byte[] garbage = new byte[2000];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = (byte) (i * 31 + 7);
        }
        ByteBuffer bytes = ByteBuffer.allocate(header.length + 12 + garbage.length);
        bytes.put(header);
        // an IDAT chunk whose content does not inflate
        bytes.putInt(garbage.length).put(new byte[] {'I', 'D', 'A', 'T'}).put(garbage);
        CRC32 crc = new CRC32();
        crc.update(new byte[] {'I', 'D', 'A', 'T'});
        crc.update(garbage);
        bytes.putInt((int) crc.getValue());
        return bytes.array();
    }

    /** A small PNG whose header claims the given size (CRC fixed up), as a decompression bomb would. */
    static byte[] pngClaiming(int width, int height) {
        byte[] png = png(8, 8);
        ByteBuffer bytes = ByteBuffer.wrap(png);
        // signature (8), length (4), "IHDR" (4), then width and height
        bytes.putInt(16, width).putInt(20, height);
        CRC32 crc = new CRC32();
        crc.update(png, 12, 4 + 13);
        bytes.putInt(12 + 4 + 13, (int) crc.getValue());
        return png;
    }
}
