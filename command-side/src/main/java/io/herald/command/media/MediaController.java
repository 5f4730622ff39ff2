package io.herald.command.media;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.media.MediaView;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.http.CacheControl;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/workspaces/{ws}/media} and its two reads (API.md "Media"). The body is the
 * image itself, read up to {@code herald.media.max-bytes} and no further; it is stored only once
 * its type (from the bytes) matches the declared one and it decodes. Uploading is no publication
 * step and writes no event: an image is content, kept by its hash, and harmless to upload twice.
 */
@RestController
@EnableConfigurationProperties(MediaProperties.class)
public class MediaController {

    private static final String WS = "/api/v1/workspaces/{ws}/media";
    // the API's id rule (PublicationRequest.SAFE_ID), repeated so media needs nothing of publications
    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,127}");
    /** The id names the bytes, so a copy never goes stale. */
    private static final CacheControl IMMUTABLE = CacheControl.maxAge(Duration.ofDays(365)).cachePrivate()
            .immutable();
    private static final String ACCEPTED = "image/jpeg, image/png, image/gif or image/webp";

    private final MediaStore store;
    private final Clock clock;
    private final int maxBytes;

    public MediaController(MediaStore store, Clock clock, MediaProperties properties) {
        this.store = store;
        this.clock = clock;
        this.maxBytes = (int) properties.maxBytes().toBytes();
        // checked at start, on the thread that sees the application's libraries
        for (ImageType type : ImageType.values()) {
            if (!ImageInspector.canRead(type)) {
                throw new IllegalStateException("no image reader for " + type.contentType() + " on the class path");
            }
        }
    }

    @PostMapping(WS)
    public ResponseEntity<MediaView> upload(@PathVariable("ws") String ws, HttpServletRequest request)
            throws IOException {
        WorkspaceId workspace = workspace(ws);
        ImageType declared = ImageType.declared(request.getContentType())
                .orElseThrow(() -> new HeraldRejection(ErrorCode.UNSUPPORTED_MEDIA_TYPE,
                        "the body must be an image sent as " + ACCEPTED));
        byte[] bytes = readAtMostLimit(request);
        if (bytes.length == 0) {
            throw new HeraldRejection(ErrorCode.MEDIA_INVALID, "the body holds no image");
        }
        Optional<ImageType> actual = ImageType.sniff(bytes);
        if (actual.isEmpty() || actual.get() != declared) {
            throw new HeraldRejection(ErrorCode.UNSUPPORTED_MEDIA_TYPE, "the bytes are "
                    + actual.map(t -> "an " + t.contentType() + " image").orElse("none of " + ACCEPTED)
                    + ", not " + declared.contentType());
        }
        MediaId id = MediaId.of("med_" + sha256Hex(bytes));
        URI location = URI.create("/api/v1/workspaces/" + ws + "/media/" + id.value());
        Optional<MediaView> known = store.find(workspace, id);
        if (known.isPresent()) {
            return ResponseEntity.ok().location(location).body(known.get());
        }
        ImageInspector.Dimensions size;
        try {
            size = ImageInspector.inspect(bytes, declared);
        } catch (ImageInspector.InvalidImage invalid) {
            throw new HeraldRejection(ErrorCode.MEDIA_INVALID, invalid.getMessage());
        }
        MediaView view = new MediaView(id, declared.contentType(), bytes.length, size.width(), size.height(),
                clock.instant().truncatedTo(ChronoUnit.MICROS));
        if (store.add(workspace, view, bytes)) {
            return ResponseEntity.created(location).body(view);
        }
        // the same bytes arrived concurrently and the other upload stored them first
        return ResponseEntity.ok().location(location).body(store.find(workspace, id).orElseThrow());
    }

    @GetMapping(WS + "/{mediaId}")
    public MediaView view(@PathVariable("ws") String ws, @PathVariable("mediaId") String mediaId) {
        return store.find(workspace(ws), mediaId(mediaId)).orElseThrow(MediaController::notFound);
    }

    @GetMapping(WS + "/{mediaId}/content")
    public ResponseEntity<byte[]> content(@PathVariable("ws") String ws, @PathVariable("mediaId") String mediaId) {
        MediaId id = mediaId(mediaId);
        MediaStore.StoredMedia stored = store.findWithContent(workspace(ws), id)
                .orElseThrow(MediaController::notFound);
        String extension = ImageType.declared(stored.view().contentType()).map(ImageType::extension).orElse("bin");
        return ResponseEntity.ok()
                .contentType(MediaType.parseMediaType(stored.view().contentType()))
                .contentLength(stored.content().length)
                // served as a file to save, never rendered as a page of Herald's origin
                .header(HttpHeaders.CONTENT_DISPOSITION,
                        ContentDisposition.attachment().filename(id.value() + "." + extension).build().toString())
                .header("X-Content-Type-Options", "nosniff")
                .cacheControl(IMMUTABLE)
                .eTag("\"" + id.value() + "\"")
                .body(stored.content());
    }

    /**
     * The body, read to the limit and no further: a declared length over it is refused before
     * reading, an undeclared one as soon as the count passes it.
     */
    private byte[] readAtMostLimit(HttpServletRequest request) throws IOException {
        long declaredLength = request.getContentLengthLong();
        if (declaredLength > maxBytes) {
            throw tooLarge();
        }
        try (InputStream body = request.getInputStream()) {
            if (declaredLength >= 0) {
                byte[] bytes = body.readNBytes((int) declaredLength);
                if (body.read() >= 0) {
                    throw tooLarge();
                }
                return bytes;
            }
            byte[] bytes = body.readNBytes(maxBytes + 1);
            if (bytes.length > maxBytes) {
                throw tooLarge();
            }
            return bytes;
        }
    }

    private HeraldRejection tooLarge() {
        return new HeraldRejection(ErrorCode.PAYLOAD_TOO_LARGE,
                "the image is larger than " + maxBytes + " bytes (herald.media.max-bytes)");
    }

    private static WorkspaceId workspace(String ws) {
        if (!SAFE_ID.matcher(ws).matches()) {
            throw notFound();
        }
        return new WorkspaceId(ws);
    }

    private static MediaId mediaId(String text) {
        if (!MediaId.isMediaId(text)) {
            throw notFound();
        }
        return MediaId.of(text);
    }

    private static HeraldRejection notFound() {
        return new HeraldRejection(ErrorCode.NOT_FOUND, "no such media");
    }

    private static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
