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

    /** The JPEG with its first frame header claiming the given size. */
    static byte[] jpegClaiming(byte[] jpeg, int width, int height) {
        byte[] bytes = jpeg.clone();
        int at = sofOffset(bytes);
        bytes[at + 5] = (byte) (height >> 8);
        bytes[at + 6] = (byte) height;
        bytes[at + 7] = (byte) (width >> 8);
        bytes[at + 8] = (byte) width;
        return bytes;
    }

    /** The JPEG with its frame header marked progressive (SOF2): only the header is read. */
    static byte[] progressive(byte[] jpeg) {
        byte[] bytes = jpeg.clone();
        bytes[sofOffset(bytes) + 1] = (byte) 0xC2;
        return bytes;
    }

    private static int sofOffset(byte[] jpeg) {
        int at = 2;
        while ((jpeg[at + 1] & 0xFF) != 0xC0) {
            at += 2 + (((jpeg[at + 2] & 0xFF) << 8) | (jpeg[at + 3] & 0xFF));
        }
        return at;
    }

    /** A small GIF whose logical screen claims the given size. */
    static byte[] gifWithScreen(int width, int height) {
        byte[] gif = image("gif", 4, 4);
        ByteBuffer.wrap(gif).order(java.nio.ByteOrder.LITTLE_ENDIAN).putShort(6, (short) width).putShort(8, (short) height);
        return gif;
    }

    /** A GIF of a 4 x 4 screen whose one frame claims the given size (its data stays that of 4 x 4). */
    static byte[] gifWithFrame(int width, int height) {
        ByteBuffer gif = ByteBuffer.allocate(64).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        gif.put(new byte[] {'G', 'I', 'F', '8', '9', 'a'}).putShort((short) 4).putShort((short) 4).put((byte) 0x80)
                .put((byte) 0).put((byte) 0);
        gif.put(new byte[6]); // a colour table of two entries
        gif.put((byte) 0x2C).putShort((short) 0).putShort((short) 0).putShort((short) width).putShort((short) height)
                .put((byte) 0);
        // LZW minimum code size 2, one sub-block: clear, a pixel, end
        gif.put((byte) 2).put((byte) 2).put((byte) 0x44).put((byte) 0x01).put((byte) 0).put((byte) 0x3B);
        return Arrays.copyOf(gif.array(), gif.position());
    }

    /** An extended WebP (VP8X) whose canvas claims the given size, over the 1 x 1 lossless bitstream. */
    static byte[] webpWithCanvas(int width, int height) {
        byte[] simple = WEBP_LOSSLESS_1X1;
        byte[] bitstream = Arrays.copyOfRange(simple, 12, simple.length);
        ByteBuffer webp = ByteBuffer.allocate(12 + 18 + bitstream.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        webp.put(new byte[] {'R', 'I', 'F', 'F'}).putInt(4 + 18 + bitstream.length).put(new byte[] {'W', 'E', 'B', 'P'});
        webp.put(new byte[] {'V', 'P', '8', 'X'}).putInt(10).putInt(0);
        webp.put((byte) (width - 1)).put((byte) ((width - 1) >> 8)).put((byte) ((width - 1) >> 16));
        webp.put((byte) (height - 1)).put((byte) ((height - 1) >> 8)).put((byte) ((height - 1) >> 16));
        webp.put(bitstream);
        return webp.array();
    }
}
