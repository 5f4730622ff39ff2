package io.herald.sandbox;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Optional;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;

/** What the simulated providers tell from an uploaded file's bytes: its image type, size and hash. */
public final class SandboxImages {

    private SandboxImages() {
    }

    public record Size(int width, int height) {
    }

    /** The image type the bytes start like (JPEG, PNG, GIF, WebP, BMP, TIFF), if any. */
    public static Optional<String> type(byte[] bytes) {
        if (starts(bytes, 0, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A)) {
            return Optional.of("image/png");
        }
        if (starts(bytes, 0, 0xFF, 0xD8, 0xFF)) {
            return Optional.of("image/jpeg");
        }
        if (starts(bytes, 0, 'G', 'I', 'F', '8') && bytes.length > 5 && (bytes[4] == '7' || bytes[4] == '9')
                && bytes[5] == 'a') {
            return Optional.of("image/gif");
        }
        if (starts(bytes, 0, 'R', 'I', 'F', 'F') && starts(bytes, 8, 'W', 'E', 'B', 'P')) {
            return Optional.of("image/webp");
        }
        if (starts(bytes, 0, 'B', 'M')) {
            return Optional.of("image/bmp");
        }
        if (starts(bytes, 0, 'I', 'I', 0x2A, 0x00) || starts(bytes, 0, 'M', 'M', 0x00, 0x2A)) {
            return Optional.of("image/tiff");
        }
        return Optional.empty();
    }

    /** Width and height from the header, where an image reader on the class path knows the type. */
    public static Optional<Size> size(byte[] bytes, String contentType) {
        Iterator<ImageReader> readers = ImageIO.getImageReadersByMIMEType(contentType);
        if (!readers.hasNext()) {
            return Optional.empty();
        }
        ImageReader reader = readers.next();
        try (ImageInputStream in = new MemoryCacheImageInputStream(new ByteArrayInputStream(bytes))) {
            reader.setInput(in, true, true);
            return Optional.of(new Size(reader.getWidth(0), reader.getHeight(0)));
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        } finally {
            reader.dispose();
        }
    }

    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean starts(byte[] bytes, int offset, int... signature) {
        if (bytes.length < offset + signature.length) {
            return false;
        }
        for (int i = 0; i < signature.length; i++) {
            if ((bytes[offset + i] & 0xFF) != signature[i]) {
                return false;
            }
        }
        return true;
    }
}
