package io.herald.command.media;

import io.swagger.v3.oas.annotations.Operation;
import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.contracts.id.WorkspaceId;
import io.herald.contracts.media.MediaId;
import io.herald.contracts.media.MediaView;
import io.herald.platform.problem.Problems;
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
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /api/v1/workspaces/{ws}/media} and its two reads (docs/api.md#media). The body is the
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

    /** How long a client refused for want of a decode slot waits before it sends the image again. */
    static final Duration DECODE_RETRY_AFTER = Duration.ofSeconds(1);

    private final MediaStore store;
    private final Clock clock;
    private final int maxBytes;
    private final long quotaBytes;
    private final ImageInspector inspector;

    public MediaController(MediaStore store, Clock clock, MediaProperties properties, ImageInspector inspector) {
        this.store = store;
        this.clock = clock;
        this.maxBytes = (int) properties.maxBytes().toBytes();
        this.quotaBytes = properties.quotaBytes().toBytes();
        this.inspector = inspector;
        // checked at start, on the thread that sees the application's libraries
        for (ImageType type : ImageType.values()) {
            if (!ImageInspector.canRead(type)) {
                throw new IllegalStateException("no image reader for " + type.contentType() + " on the class path");
            }
        }
    }

    @Operation(description = "Uploads an image; the body is the image itself (JPEG, PNG, GIF or WebP). Its id is "
            + "derived from its bytes, so uploading the same image again answers 200 with the same id. "
            + "Refused with nothing stored when it is too large, unreadable or over the workspace's "
            + "quota.")
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
        // a first look, before the decode's work; the insert checks again under the usage row's lock
        if (store.storedBytes(workspace) + bytes.length > quotaBytes) {
            throw overQuota(bytes.length);
        }
        ImageInspector.Dimensions size;
        try {
            size = inspector.inspect(workspace, bytes, declared);
        } catch (ImageInspector.InvalidImage invalid) {
            throw new HeraldRejection(invalid.code(), invalid.getMessage());
        }
        MediaView view = new MediaView(id, declared.contentType(), bytes.length, size.width(), size.height(),
                clock.instant().truncatedTo(ChronoUnit.MICROS));
        return switch (store.add(workspace, view, bytes, quotaBytes)) {
            case STORED -> ResponseEntity.created(location).body(view);
            case OVER_QUOTA -> throw overQuota(bytes.length);
            // the same bytes arrived concurrently and the other upload stored them first
            case ALREADY_STORED -> ResponseEntity.ok().location(location).body(store.find(workspace, id).orElseThrow());
        };
    }

    /**
     * Removes an image of the workspace: 204, or 409 {@code media_in_use} while a publication that
     * has not finished names it (its upload step still needs the bytes); another workspace's image
     * or an unknown id is 404, as for reads.
     */
    @Operation(description = "Deletes an image that no unfinished publication uses; otherwise 409 media_in_use.")
    @DeleteMapping(WS + "/{mediaId}")
    public ResponseEntity<Void> delete(@PathVariable("ws") String ws, @PathVariable("mediaId") String mediaId) {
        return switch (store.remove(workspace(ws), mediaId(mediaId))) {
            case REMOVED -> ResponseEntity.noContent().build();
            case NOT_FOUND -> throw notFound();
            case IN_USE -> throw new HeraldRejection(ErrorCode.MEDIA_IN_USE, "a publication that has not finished"
                    + " uses media " + mediaId + "; delete it once that publication has settled");
        };
    }

    /** Every decode slot stayed taken for the wait: 429 with {@code Retry-After}, nothing stored. */
    @ExceptionHandler(DecodeSlots.Busy.class)
    ResponseEntity<ProblemDetail> decodeBusy(DecodeSlots.Busy refusal) {
        return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .header(HttpHeaders.RETRY_AFTER, Long.toString(DECODE_RETRY_AFTER.toSeconds()))
                .body(Problems.of(ErrorCode.RATE_LIMITED, refusal.getMessage()));
    }

    private HeraldRejection overQuota(long adding) {
        return new HeraldRejection(ErrorCode.QUOTA_EXCEEDED, "the workspace's images would take more than "
                + quotaBytes + " bytes with this one of " + adding + " (herald.media.quota-bytes); delete some first");
    }

    @Operation(description = "Describes an uploaded image: content type, size in bytes, width, height and when it was "
            + "uploaded.")
    @GetMapping(WS + "/{mediaId}")
    public MediaView view(@PathVariable("ws") String ws, @PathVariable("mediaId") String mediaId) {
        return store.find(workspace(ws), mediaId(mediaId)).orElseThrow(MediaController::notFound);
    }

    @Operation(description = "Answers the uploaded image's bytes with their content type.")
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
