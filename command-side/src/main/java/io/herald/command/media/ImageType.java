package io.herald.command.media;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The image types Herald accepts, each known by its magic number. Four fixed signatures are a few
 * lines, so they are checked here rather than through a content-detection library.
 */
public enum ImageType {
    JPEG("image/jpeg", "jpg"),
    PNG("image/png", "png"),
    GIF("image/gif", "gif"),
    WEBP("image/webp", "webp");

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    private static final byte[] JPEG_SIGNATURE = {(byte) 0xFF, (byte) 0xD8, (byte) 0xFF};
    private static final byte[] GIF87 = {'G', 'I', 'F', '8', '7', 'a'};
    private static final byte[] GIF89 = {'G', 'I', 'F', '8', '9', 'a'};
    private static final byte[] RIFF = {'R', 'I', 'F', 'F'};
    private static final byte[] WEBP_FORM = {'W', 'E', 'B', 'P'};

    private final String contentType;
    private final String extension;

    ImageType(String contentType, String extension) {
        this.contentType = contentType;
        this.extension = extension;
    }

    public String contentType() {
        return contentType;
    }

    /** The file name extension the bytes are served under. */
    public String extension() {
        return extension;
    }

    /** The accepted type a {@code Content-Type} header names (parameters and case ignored), if any. */
    public static Optional<ImageType> declared(String contentTypeHeader) {
        if (contentTypeHeader == null) {
            return Optional.empty();
        }
        int parameters = contentTypeHeader.indexOf(';');
        String type = (parameters < 0 ? contentTypeHeader : contentTypeHeader.substring(0, parameters))
                .trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(t -> t.contentType.equals(type)).findFirst();
    }

    /** The type whose signature the bytes start with, if any of the accepted ones. */
    public static Optional<ImageType> sniff(byte[] bytes) {
        if (startsWith(bytes, 0, PNG_SIGNATURE)) {
            return Optional.of(PNG);
        }
        if (startsWith(bytes, 0, JPEG_SIGNATURE)) {
            return Optional.of(JPEG);
        }
        if (startsWith(bytes, 0, GIF87) || startsWith(bytes, 0, GIF89)) {
            return Optional.of(GIF);
        }
        // RIFF, four bytes of length, then the form type
        if (startsWith(bytes, 0, RIFF) && startsWith(bytes, 8, WEBP_FORM)) {
            return Optional.of(WEBP);
        }
        return Optional.empty();
    }

    private static boolean startsWith(byte[] bytes, int offset, byte[] signature) {
        if (bytes.length < offset + signature.length) {
            return false;
        }
        for (int i = 0; i < signature.length; i++) {
            if (bytes[offset + i] != signature[i]) {
                return false;
            }
        }
        return true;
    }
}
