package io.herald.command.media;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Iterator;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;

/**
 * Reads an image's width and height from its header with the JDK's image readers (WebP through
 * the TwelveMonkeys reader, which registers itself with ImageIO), and checks that the image
 * decodes. The check reads every byte but keeps at most {@value #CHECK_EDGE} pixels a side (the
 * readers subsample as they go), so a large image is never held decoded; an image claiming more
 * than {@value #MAX_PIXELS} pixels is refused before any decoding, as a decompression bomb would be.
 */
public final class ImageInspector {

    /** LinkedIn's limit (about 36 megapixels), the strictest of the providers'. */
    static final long MAX_PIXELS = 36_152_320L;
    private static final int CHECK_EDGE = 256;

    static {
        // the readers of libraries on the application's class path, whichever thread asks first
        ImageIO.scanForPlugins();
    }

    public record Dimensions(int width, int height) {
    }

    /** Why an image was refused; the message is shown to the client. */
    public static final class InvalidImage extends Exception {
        InvalidImage(String message) {
            super(message, null, false, false);
        }
    }

    private ImageInspector() {
    }

    /** Whether ImageIO can read this type here at all (WebP needs its reader library). */
    public static boolean canRead(ImageType type) {
        return ImageIO.getImageReadersByMIMEType(type.contentType()).hasNext();
    }

    public static Dimensions inspect(byte[] bytes, ImageType type) throws InvalidImage {
        Iterator<ImageReader> readers = ImageIO.getImageReadersByMIMEType(type.contentType());
        if (!readers.hasNext()) {
            throw new IllegalStateException("no image reader for " + type.contentType() + " on the class path");
        }
        ImageReader reader = readers.next();
        try (ImageInputStream in = new MemoryCacheImageInputStream(new ByteArrayInputStream(bytes))) {
            reader.setInput(in, true, true);
            int width = reader.getWidth(0);
            int height = reader.getHeight(0);
            if (width < 1 || height < 1) {
                throw new InvalidImage("the image has no pixels");
            }
            if ((long) width * height > MAX_PIXELS) {
                throw new InvalidImage("the image has more than " + MAX_PIXELS + " pixels (" + width + " x "
                        + height + ")");
            }
            ImageReadParam param = reader.getDefaultReadParam();
            int step = Math.max(1, (Math.max(width, height) + CHECK_EDGE - 1) / CHECK_EDGE);
            param.setSourceSubsampling(step, step, 0, 0);
            reader.read(0, param);
            return new Dimensions(width, height);
        } catch (IOException unreadable) {
            throw new InvalidImage("the body is not a decodable " + type.contentType() + " image");
        } catch (RuntimeException malformed) {
            // image readers fail on malformed data with all kinds of unchecked exceptions
            throw new InvalidImage("the body is not a decodable " + type.contentType() + " image");
        } finally {
            reader.dispose();
        }
    }
}
