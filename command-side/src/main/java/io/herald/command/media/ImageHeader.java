package io.herald.command.media;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * An image's declared size, read from its header by hand, before any image reader sees the bytes.
 * The readers size their buffers from these numbers: the JDK's PNG reader allocates rows of the
 * declared width (a 36,152,320 x 1 PNG of 140 KB made rows of about 145 MB), and the WebP reader
 * decodes a lossless image into a raster of the full declared size whatever the subsampling. So
 * the numbers are checked first, here, from a few dozen bytes.
 *
 * <p>Each format names its size in several places; all of them count: a GIF's logical screen and
 * every frame, a WebP's canvas ({@code VP8X}), its frames ({@code ANMF}) and its bitstream
 * ({@code VP8 }/{@code VP8L}), a JPEG's first frame header ({@code SOFn}).
 *
 * @param width        the width the image reports (its first frame's, as the readers report it)
 * @param height       the height the image reports
 * @param largestSide  the largest width or height anywhere in the header (canvas, frames)
 * @param bytesPerRow  the bytes one decoded row of the largest width takes in the reader
 * @param decodeBytes  an estimate of the memory the reader needs to check the image (heap, or for
 *                     a progressive JPEG the native coefficient buffer)
 */
record ImageHeader(int width, int height, long largestSide, long bytesPerRow, long decodeBytes) {

    /** What the readers keep besides rows: tables, the subsampled destination, the stream cache. */
    private static final long OVERHEAD = 512 * 1024;

    /** The header, or empty when the bytes hold none where their format puts it. */
    static Optional<ImageHeader> read(byte[] bytes, ImageType type) {
        try {
            return switch (type) {
                case PNG -> png(bytes);
                case JPEG -> jpeg(bytes);
                case GIF -> gif(bytes);
                case WEBP -> webp(bytes);
            };
        } catch (ArrayIndexOutOfBoundsException truncated) {
            return Optional.empty();
        }
    }

    /**
     * The {@code IHDR} chunk comes first: width and height as unsigned 32-bit numbers, then the bit
     * depth and colour type, which give the bytes of a row. The reader holds the row being
     * inflated and the one before it (for the filters), and a row of the destination's width.
     */
    private static Optional<ImageHeader> png(byte[] b) {
        if (b.length < 33 || int32(b, 8) != 13 || b[12] != 'I' || b[13] != 'H' || b[14] != 'D' || b[15] != 'R') {
            return Optional.empty();
        }
        long width = uint32(b, 16);
        long height = uint32(b, 20);
        int bitDepth = b[24] & 0xFF;
        int channels = switch (b[25] & 0xFF) {
            case 0, 3 -> 1;
            case 2 -> 3;
            case 4 -> 2;
            case 6 -> 4;
            default -> 0;
        };
        if (channels == 0 || bitDepth == 0 || bitDepth > 16) {
            return Optional.empty();
        }
        long rowBytes = (width * channels * bitDepth + 7) / 8 + 1;
        return Optional.of(of(width, height, Math.max(width, height), rowBytes, 4 * rowBytes));
    }

    /**
     * Segments from the start of image to the first frame header ({@code SOF0}…{@code SOF15}, not
     * {@code DHT}, {@code JPG} or {@code DAC}): precision, height, width, components. The JDK's
     * reader decodes in native code; a progressive frame keeps every coefficient of the image
     * (two bytes per sample) until the last scan, a sequential one a row of blocks.
     */
    private static Optional<ImageHeader> jpeg(byte[] b) {
        int at = 2;
        while (at + 4 <= b.length) {
            if ((b[at] & 0xFF) != 0xFF) {
                return Optional.empty();
            }
            int marker = b[at + 1] & 0xFF;
            if (marker == 0xFF) {
                at++; // fill byte
                continue;
            }
            if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8)) {
                at += 2; // markers without a length
                continue;
            }
            if (marker == 0xD9 || marker == 0xDA) {
                return Optional.empty(); // end of image or start of scan before any frame header
            }
            int length = uint16(b, at + 2);
            if (length < 2) {
                return Optional.empty();
            }
            boolean frame = marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
            if (frame) {
                int precision = b[at + 4] & 0xFF;
                long height = uint16(b, at + 5);
                long width = uint16(b, at + 7);
                int components = b[at + 9] & 0xFF;
                if (components == 0) {
                    return Optional.empty();
                }
                long sampleBytes = precision > 8 ? 2 : 1;
                long rowBytes = width * components * sampleBytes;
                boolean progressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE;
                // a sequential frame is decoded a row of blocks at a time (up to 16 lines with chroma subsampling)
                long decode = progressive ? width * height * components * 2 : rowBytes * 16 * 2;
                return Optional.of(of(width, height, Math.max(width, height), rowBytes, decode));
            }
            at += 2 + length;
        }
        return Optional.empty();
    }

    /**
     * The logical screen, then every block: extensions are skipped by their sub-blocks, each
     * image descriptor's frame counts with its offset. The reader decodes a frame row by row.
     */
    private static Optional<ImageHeader> gif(byte[] b) {
        if (b.length < 13) {
            return Optional.empty();
        }
        long screenWidth = uint16le(b, 6);
        long screenHeight = uint16le(b, 8);
        long largest = Math.max(screenWidth, screenHeight);
        int at = 13 + colourTableBytes(b[10]);
        long firstWidth = -1;
        long firstHeight = -1;
        while (at < b.length) {
            int block = b[at] & 0xFF;
            if (block == 0x3B) {
                break; // trailer
            } else if (block == 0x21) {
                at = skipSubBlocks(b, at + 2);
            } else if (block == 0x2C) {
                long left = uint16le(b, at + 1);
                long top = uint16le(b, at + 3);
                long width = uint16le(b, at + 5);
                long height = uint16le(b, at + 7);
                if (firstWidth < 0) {
                    firstWidth = width;
                    firstHeight = height;
                }
                largest = Math.max(largest, Math.max(left + width, top + height));
                at = skipSubBlocks(b, at + 10 + colourTableBytes(b[at + 9]) + 1);
            } else {
                break; // anything else ends what the reader would read
            }
        }
        if (firstWidth < 0) {
            return Optional.empty();
        }
        long rowBytes = Math.max(screenWidth, firstWidth);
        // the LZW decoder's tables and a row of pixels, twice over
        return Optional.of(of(firstWidth, firstHeight, largest, rowBytes, 2 * rowBytes + 64 * 1024));
    }

    private static int colourTableBytes(byte packed) {
        return (packed & 0x80) == 0 ? 0 : 3 * (1 << ((packed & 0x07) + 1));
    }

    private static int skipSubBlocks(byte[] b, int at) {
        int size;
        while ((size = b[at] & 0xFF) != 0) {
            at += 1 + size;
        }
        return at + 1;
    }

    /**
     * The chunks after {@code RIFF….WEBP}: a simple file is one {@code VP8 } (lossy, 14-bit sizes
     * in its key frame header) or {@code VP8L} (lossless, 14-bit sizes minus one); an extended one
     * starts with {@code VP8X} (a canvas of up to 2^24 a side) and may hold {@code ANMF} frames of
     * their own size. The reader decodes into a raster of the full size (four bytes a pixel).
     */
    private static Optional<ImageHeader> webp(byte[] b) {
        long width = -1;
        long height = -1;
        long largest = 0;
        int at = 12;
        while (at + 8 <= b.length) {
            String chunk = new String(b, at, 4, StandardCharsets.US_ASCII);
            long size = uint32le(b, at + 4);
            int data = at + 8;
            switch (chunk) {
                case "VP8X" -> {
                    long canvasWidth = uint24le(b, data + 4) + 1;
                    long canvasHeight = uint24le(b, data + 7) + 1;
                    largest = Math.max(largest, Math.max(canvasWidth, canvasHeight));
                    width = canvasWidth;
                    height = canvasHeight;
                }
                case "ANMF" -> {
                    long frameWidth = uint24le(b, data + 6) + 1;
                    long frameHeight = uint24le(b, data + 9) + 1;
                    largest = Math.max(largest, Math.max(frameWidth, frameHeight));
                    // the frame's own bitstream follows its 16 bytes of header
                    size = 16;
                }
                case "VP8 " -> {
                    if ((b[data + 3] & 0xFF) != 0x9D || (b[data + 4] & 0xFF) != 0x01 || (b[data + 5] & 0xFF) != 0x2A) {
                        return Optional.empty();
                    }
                    long w = uint16le(b, data + 6) & 0x3FFF;
                    long h = uint16le(b, data + 8) & 0x3FFF;
                    largest = Math.max(largest, Math.max(w, h));
                    if (width < 0) {
                        width = w;
                        height = h;
                    }
                }
                case "VP8L" -> {
                    if ((b[data] & 0xFF) != 0x2F) {
                        return Optional.empty();
                    }
                    long bits = uint32le(b, data + 1);
                    long w = (bits & 0x3FFF) + 1;
                    long h = ((bits >>> 14) & 0x3FFF) + 1;
                    largest = Math.max(largest, Math.max(w, h));
                    if (width < 0) {
                        width = w;
                        height = h;
                    }
                }
                default -> {
                    // metadata (ICCP, EXIF, XMP, ALPH, ANIM): no size of its own
                }
            }
            // chunks are padded to an even length
            long next = data + size + (size & 1);
            if (next > b.length) {
                break;
            }
            at = (int) next;
        }
        if (width < 0) {
            return Optional.empty();
        }
        long rowBytes = 4 * Math.max(width, 1);
        return Optional.of(of(width, height, largest, rowBytes, 4 * width * height));
    }

    private static ImageHeader of(long width, long height, long largestSide, long rowBytes, long decode) {
        // the sizes are at most 2^32 - 1, so the products above stay far below Long.MAX_VALUE
        return new ImageHeader((int) Math.min(width, Integer.MAX_VALUE), (int) Math.min(height, Integer.MAX_VALUE),
                largestSide, rowBytes, decode + OVERHEAD);
    }

    private static int int32(byte[] b, int at) {
        return (int) uint32(b, at);
    }

    private static long uint32(byte[] b, int at) {
        return ((long) (b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8) | (b[at + 3] & 0xFF);
    }

    private static int uint16(byte[] b, int at) {
        return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
    }

    private static int uint16le(byte[] b, int at) {
        return (b[at] & 0xFF) | ((b[at + 1] & 0xFF) << 8);
    }

    private static long uint24le(byte[] b, int at) {
        return (b[at] & 0xFF) | ((b[at + 1] & 0xFF) << 8) | ((long) (b[at + 2] & 0xFF) << 16);
    }

    private static long uint32le(byte[] b, int at) {
        return uint24le(b, at) | ((long) (b[at + 3] & 0xFF) << 24);
    }
}
