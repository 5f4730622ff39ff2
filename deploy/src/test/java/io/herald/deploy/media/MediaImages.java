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
}
