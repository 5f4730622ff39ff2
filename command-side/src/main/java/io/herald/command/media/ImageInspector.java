package io.herald.command.media;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.id.WorkspaceId;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageReadParam;
import javax.imageio.ImageReader;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.ImageOutputStream;
import javax.imageio.stream.MemoryCacheImageInputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * Reads an image's width and height and checks that it decodes, in three steps, each cheaper than
 * the next:
 * <ol>
 * <li>the header, read by hand ({@link ImageHeader}) before any image reader sees the bytes: no
 * side over {@code herald.media.max-side} anywhere (canvas, frames), no decoded row over the bytes
 * of {@code max-side} pixels of 16-bit RGBA, at most {@value #MAX_PIXELS} pixels. The readers
 * size their buffers from these numbers, so a 140 KB PNG declaring 36,152,320 x 1 pixels is refused
 * here instead of making rows of 145 MB;</li>
 * <li>a decode slot ({@link DecodeSlots}): a few checks at once per node, one per workspace, within
 * a memory budget by the header's estimate;</li>
 * <li>the decode itself, with the JDK's image readers (WebP through the TwelveMonkeys reader, which
 * registers itself with ImageIO). It reads every byte but keeps at most {@value #CHECK_EDGE} pixels
 * a side (the readers subsample as they go), so a large image is never held decoded.</li>
 * </ol>
 * Data that does not decode is {@code media_invalid}; a reader that gives up otherwise (out of
 * memory, a stack overflow, an unchecked exception on crafted rows) is {@code media_unreadable}.
 * Either way the caller stores nothing.
 */
public final class ImageInspector {

    /** LinkedIn's limit (about 36 megapixels), the strictest of the providers'. */
    static final long MAX_PIXELS = 36_152_320L;
    private static final int CHECK_EDGE = 256;
    /** The widest sample a reader decodes: four channels of 16 bits. */
    private static final int MAX_BYTES_PER_PIXEL = 8;
    /** The quality of a JPEG made from another type. */
    private static final float JPEG_QUALITY = 0.92f;

    static {
        // the readers of libraries on the application's class path, whichever thread asks first
        ImageIO.scanForPlugins();
    }

    private final int maxSide;
    private final DecodeSlots slots;

    ImageInspector(int maxSide, DecodeSlots slots) {
        this.maxSide = maxSide;
        this.slots = slots;
    }

    public record Dimensions(int width, int height) {
    }

    /** Why an image was refused, with the code to answer; the message is shown to the client. */
    public static final class InvalidImage extends Exception {
        private final ErrorCode code;

        InvalidImage(ErrorCode code, String message) {
            super(message, null, false, false);
            this.code = code;
        }

        public ErrorCode code() {
            return code;
        }
    }

    /** Whether ImageIO can read this type here at all (WebP needs its reader library). */
    public static boolean canRead(ImageType type) {
        return ImageIO.getImageReadersByMIMEType(type.contentType()).hasNext();
    }

    /**
     * @throws InvalidImage          when the image breaks a limit or does not decode
     * @throws DecodeSlots.Busy      when no decode slot was free in time
     */
    public Dimensions inspect(WorkspaceId workspace, byte[] bytes, ImageType type) throws InvalidImage {
        ImageHeader header = ImageHeader.read(bytes, type).orElseThrow(() -> undecodable(type));
        checkHeader(header);
        try (DecodeSlots.Slot slot = slots.take(workspace, header.decodeBytes())) {
            return decode(bytes, type);
        }
    }

    /**
     * The image as a JPEG of the same size, for a provider that takes JPEG only: a JPEG as it is,
     * another type decoded whole (its first frame) and drawn on white, within the same limits and
     * decode slots as {@link #inspect}; the decoded image takes four bytes a pixel, twice.
     *
     * @throws InvalidImage          when the image breaks a limit or does not decode
     * @throws DecodeSlots.Busy      when no decode slot was free in time
     */
    public byte[] jpeg(WorkspaceId workspace, byte[] bytes, ImageType type) throws InvalidImage {
        if (type == ImageType.JPEG) {
            return bytes;
        }
        ImageHeader header = ImageHeader.read(bytes, type).orElseThrow(() -> undecodable(type));
        checkHeader(header);
        long whole = 8L * header.width() * header.height();
        try (DecodeSlots.Slot slot = slots.take(workspace, Math.max(header.decodeBytes(), whole))) {
            BufferedImage decoded = decodeWhole(bytes, type);
            BufferedImage rgb = new BufferedImage(decoded.getWidth(), decoded.getHeight(), BufferedImage.TYPE_INT_RGB);
            Graphics2D canvas = rgb.createGraphics();
            try {
                canvas.setColor(Color.WHITE);
                canvas.fillRect(0, 0, rgb.getWidth(), rgb.getHeight());
                canvas.drawImage(decoded, 0, 0, null);
            } finally {
                canvas.dispose();
            }
            return encodeJpeg(rgb);
        }
    }

    private BufferedImage decodeWhole(byte[] bytes, ImageType type) throws InvalidImage {
        Iterator<ImageReader> readers = ImageIO.getImageReadersByMIMEType(type.contentType());
        if (!readers.hasNext()) {
            throw new IllegalStateException("no image reader for " + type.contentType() + " on the class path");
        }
        ImageReader reader = readers.next();
        try (ImageInputStream in = new MemoryCacheImageInputStream(new ByteArrayInputStream(bytes))) {
            reader.setInput(in, true, true);
            int width = reader.getWidth(0);
            int height = reader.getHeight(0);
            if (width < 1 || height < 1 || Math.max(width, height) > maxSide || (long) width * height > MAX_PIXELS) {
                throw new InvalidImage(ErrorCode.MEDIA_UNREADABLE, "the image's reader finds " + width + " x "
                        + height + " pixels, over the limits");
            }
            return reader.read(0);
        } catch (IOException unreadable) {
            throw undecodable(type);
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError gaveUp) {
            throw new InvalidImage(ErrorCode.MEDIA_UNREADABLE, "the " + type.contentType()
                    + " image's reader gave up on it (" + gaveUp.getClass().getSimpleName() + ")");
        } finally {
            reader.dispose();
        }
    }

    private static byte[] encodeJpeg(BufferedImage rgb) {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ImageOutputStream stream = new MemoryCacheImageOutputStream(out)) {
            writer.setOutput(stream);
            ImageWriteParam param = writer.getDefaultWriteParam();
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality(JPEG_QUALITY);
            writer.write(null, new IIOImage(rgb, null, null), param);
        } catch (IOException e) {
            throw new UncheckedIOException("writing a JPEG in memory failed", e);
        } finally {
            writer.dispose();
        }
        return out.toByteArray();
    }

    private void checkHeader(ImageHeader header) throws InvalidImage {
        if (header.width() < 1 || header.height() < 1) {
            throw new InvalidImage(ErrorCode.MEDIA_INVALID, "the image has no pixels");
        }
        if (header.largestSide() > maxSide) {
            throw new InvalidImage(ErrorCode.MEDIA_UNREADABLE, "the image declares a side of " + header.largestSide()
                    + " pixels, more than " + maxSide + " (herald.media.max-side)");
        }
        if (header.bytesPerRow() > (long) maxSide * MAX_BYTES_PER_PIXEL + 1) {
            throw new InvalidImage(ErrorCode.MEDIA_UNREADABLE, "a row of the image would take " + header.bytesPerRow()
                    + " bytes decoded, more than " + maxSide + " pixels of 16-bit RGBA");
        }
        if ((long) header.width() * header.height() > MAX_PIXELS) {
            throw new InvalidImage(ErrorCode.MEDIA_INVALID, "the image has more than " + MAX_PIXELS + " pixels ("
                    + header.width() + " x " + header.height() + ")");
        }
    }

    private Dimensions decode(byte[] bytes, ImageType type) throws InvalidImage {
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
                throw new InvalidImage(ErrorCode.MEDIA_INVALID, "the image has no pixels");
            }
            // the reader's own reading of the header, in case it differs from ours
            if (Math.max(width, height) > maxSide || (long) width * height > MAX_PIXELS) {
                throw new InvalidImage(ErrorCode.MEDIA_UNREADABLE, "the image's reader finds " + width + " x "
                        + height + " pixels, over the limits");
            }
            ImageReadParam param = reader.getDefaultReadParam();
            int step = Math.max(1, (Math.max(width, height) + CHECK_EDGE - 1) / CHECK_EDGE);
            param.setSourceSubsampling(step, step, 0, 0);
            reader.read(0, param);
            return new Dimensions(width, height);
        } catch (IOException unreadable) {
            throw undecodable(type);
        } catch (RuntimeException | OutOfMemoryError | StackOverflowError gaveUp) {
            // readers fail on crafted data with all kinds of unchecked exceptions; an error here is
            // this decode's alone (its buffers are garbage now), and the upload is refused whole
            throw new InvalidImage(ErrorCode.MEDIA_UNREADABLE, "the " + type.contentType()
                    + " image's reader gave up on it (" + gaveUp.getClass().getSimpleName() + ")");
        } finally {
            reader.dispose();
        }
    }

    private static InvalidImage undecodable(ImageType type) {
        return new InvalidImage(ErrorCode.MEDIA_INVALID, "the body is not a decodable " + type.contentType() + " image");
    }
}
