package io.herald.deploy.media;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import javax.imageio.ImageIO;

/** Images made in the test: with ImageIO where the JDK writes the format, a byte literal for WebP. */
public final class MediaImages {

    /** A 1 x 1 lossless WebP (VP8L), the sample browsers use to detect WebP support. */
    static final byte[] WEBP_1X1 = Base64.getDecoder().decode("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==");

    private MediaImages() {
    }

    /** An image of the given size; {@code seed} makes the bytes differ between tests. */
    public static byte[] image(String format, int width, int height, int seed) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        for (int x = 0; x < width; x++) {
            for (int y = 0; y < height; y++) {
                image.setRGB(x, y, (x * 7919 + y * 104_729 + seed * 31) & 0xFFFFFF);
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

    /**
     * A publication's content naming these stored images in order, alt texts "image 1", "image 2"…,
     * and a first comment when given.
     */
    public static String contentWithImages(String body, List<String> mediaIds, String comment) {
        List<String> media = new ArrayList<>();
        for (int i = 0; i < mediaIds.size(); i++) {
            media.add("{\"mediaId\":\"" + mediaIds.get(i) + "\",\"altText\":\"image " + (i + 1) + "\"}");
        }
        return "{\"body\":\"" + body + "\",\"media\":[" + String.join(",", media) + "]"
                + (comment == null ? "" : ",\"firstComment\":\"" + comment + "\"") + "}";
    }

    /** A PNG's signature and header chunk (valid), then bytes that do not decode. */
    static byte[] pngHeaderOverGarbage(int seed) {
        byte[] png = image("png", 32, 32, seed);
        byte[] bytes = Arrays.copyOf(png, 8 + 25 + 600);
        for (int i = 8 + 25; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 131 + seed);
        }
        return bytes;
    }

    static String idOf(byte[] bytes) {
        try {
            return "med_" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A PNG of the given header whose one IDAT chunk inflates to {@code rows} rows of zeros (filter
     * byte included), with a palette of {@code paletteEntries} entries when positive: the shapes of
     * decompression bombs, small on the wire, huge decoded.
     */
    static byte[] pngBomb(long width, long height, int bitDepth, int colourType, long rows, int paletteEntries) {
        int channels = switch (colourType) {
            case 2 -> 3;
            case 4 -> 2;
            case 6 -> 4;
            default -> 1;
        };
        long rowBytes = (width * channels * bitDepth + 7) / 8 + 1;
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        java.util.zip.Deflater deflater = new java.util.zip.Deflater(java.util.zip.Deflater.BEST_COMPRESSION);
        byte[] zeros = new byte[1 << 20];
        byte[] out = new byte[1 << 16];
        long left = rowBytes * rows;
        while (left > 0) {
            int n = (int) Math.min(zeros.length, left);
            deflater.setInput(zeros, 0, n);
            left -= n;
            while (!deflater.needsInput()) {
                compressed.write(out, 0, deflater.deflate(out));
            }
        }
        deflater.finish();
        while (!deflater.finished()) {
            compressed.write(out, 0, deflater.deflate(out));
        }
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        png.writeBytes(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'});
        java.nio.ByteBuffer ihdr = java.nio.ByteBuffer.allocate(13).putInt((int) width).putInt((int) height)
                .put((byte) bitDepth).put((byte) colourType).put((byte) 0).put((byte) 0).put((byte) 0);
        chunk(png, "IHDR", ihdr.array());
        if (paletteEntries > 0) {
            chunk(png, "PLTE", new byte[3 * paletteEntries]);
        }
        chunk(png, "IDAT", compressed.toByteArray());
        chunk(png, "IEND", new byte[0]);
        return png.toByteArray();
    }

    private static void chunk(ByteArrayOutputStream png, String type, byte[] data) {
        byte[] name = type.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(name);
        crc.update(data);
        png.writeBytes(java.nio.ByteBuffer.allocate(4).putInt(data.length).array());
        png.writeBytes(name);
        png.writeBytes(data);
        png.writeBytes(java.nio.ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }

    /** A GIF of a 4 x 4 screen whose one frame claims the given size. */
    static byte[] gifWithFrame(int width, int height) {
        java.nio.ByteBuffer gif = java.nio.ByteBuffer.allocate(64).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        gif.put(new byte[] {'G', 'I', 'F', '8', '9', 'a'}).putShort((short) 4).putShort((short) 4).put((byte) 0x80)
                .put((byte) 0).put((byte) 0);
        gif.put(new byte[6]);
        gif.put((byte) 0x2C).putShort((short) 0).putShort((short) 0).putShort((short) width).putShort((short) height)
                .put((byte) 0);
        gif.put((byte) 2).put((byte) 2).put((byte) 0x44).put((byte) 0x01).put((byte) 0).put((byte) 0x3B);
        return Arrays.copyOf(gif.array(), gif.position());
    }

    /** An extended WebP whose canvas claims the given size, over the 1 x 1 lossless bitstream. */
    static byte[] webpWithCanvas(int width, int height) {
        byte[] bitstream = Arrays.copyOfRange(WEBP_1X1, 12, WEBP_1X1.length);
        java.nio.ByteBuffer webp = java.nio.ByteBuffer.allocate(12 + 18 + bitstream.length)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        webp.put(new byte[] {'R', 'I', 'F', 'F'}).putInt(4 + 18 + bitstream.length).put(new byte[] {'W', 'E', 'B', 'P'});
        webp.put(new byte[] {'V', 'P', '8', 'X'}).putInt(10).putInt(0);
        webp.put((byte) (width - 1)).put((byte) ((width - 1) >> 8)).put((byte) ((width - 1) >> 16));
        webp.put((byte) (height - 1)).put((byte) ((height - 1) >> 8)).put((byte) ((height - 1) >> 16));
        webp.put(bitstream);
        return webp.array();
    }

    /** A lossless WebP whose bitstream declares the given size (at most 16,384 a side) over a few bytes. */
    static byte[] webpLosslessClaiming(int width, int height) {
        long bits = (width - 1) | ((long) (height - 1) << 14);
        byte[] data = {0x2F, (byte) bits, (byte) (bits >> 8), (byte) (bits >> 16), (byte) (bits >> 24), 0, 0, 0};
        java.nio.ByteBuffer webp = java.nio.ByteBuffer.allocate(20 + data.length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        webp.put(new byte[] {'R', 'I', 'F', 'F'}).putInt(12 + data.length).put(new byte[] {'W', 'E', 'B', 'P'});
        webp.put(new byte[] {'V', 'P', '8', 'L'}).putInt(data.length).put(data);
        return webp.array();
    }
}
