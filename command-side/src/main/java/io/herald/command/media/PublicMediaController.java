package io.herald.command.media;

import io.herald.contracts.error.ErrorCode;
import io.herald.contracts.error.HeraldRejection;
import io.herald.platform.problem.Problems;
import io.swagger.v3.oas.annotations.Operation;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.CacheControl;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /media/public/{token}}: the image a provider that fetches images itself (Instagram,
 * Threads) reads, without a key (docs/api.md#media). The token ({@link SignedMediaLinks}) names one
 * workspace's image and one publication; the bytes are answered only while that publication, which
 * names the image, has not finished. Every other case (a token changed, expired or made up, the
 * image gone, another workspace's, the publication finished) is the same 404, so an answer tells
 * nothing about what exists. The token is never logged.
 */
@RestController
public class PublicMediaController {

    private static final Logger log = LoggerFactory.getLogger(PublicMediaController.class);

    private final SignedMediaLinks links;
    private final MediaStore store;
    private final ImageInspector inspector;

    public PublicMediaController(SignedMediaLinks links, MediaStore store, ImageInspector inspector) {
        this.links = links;
        this.store = store;
        this.inspector = inspector;
    }

    @Operation(description = "Answers an image a provider fetches while publishing (no key: the signed, expiring "
            + "token names the workspace, the image and the publication). Answered only while that publication "
            + "is in flight; otherwise, and for a token that is expired, changed or unknown, 404.")
    @GetMapping(SignedMediaLinks.PATH + "{token}")
    public ResponseEntity<byte[]> content(@PathVariable("token") String token) {
        SignedMediaLinks.Link link = links.read(token).orElseThrow(PublicMediaController::notFound);
        MediaStore.StoredMedia stored = store.findForPublicationInFlight(link.workspace(), link.media(),
                link.publication()).orElseThrow(PublicMediaController::notFound);
        Optional<ImageType> type = ImageType.declared(stored.view().contentType());
        if (type.isEmpty()) {
            throw notFound();
        }
        byte[] body = stored.content();
        ImageType served = type.get();
        if (link.rendition() == SignedMediaLinks.Rendition.JPEG && served != ImageType.JPEG) {
            try {
                body = inspector.jpeg(link.workspace(), body, served);
            } catch (ImageInspector.InvalidImage unreadable) {
                // checked at upload, so this is a reader of this node; the image is named, never the token
                log.warn("image {} of workspace {} could not be converted to JPEG: {}", link.media(),
                        link.workspace(), unreadable.getMessage());
                throw notFound();
            }
            served = ImageType.JPEG;
        }
        return ResponseEntity.ok()
                .contentType(MediaType.parseMediaType(served.contentType()))
                .contentLength(body.length)
                .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.inline()
                        .filename(link.media().value() + "." + served.extension()).build().toString())
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "no-referrer")
                // valid only while the publication is in flight: no cache may keep it longer
                .cacheControl(CacheControl.noStore())
                .body(body);
    }

    /** Every decode slot stayed taken: 503 with {@code Retry-After}; the provider fetches again. */
    @ExceptionHandler(DecodeSlots.Busy.class)
    ResponseEntity<ProblemDetail> busy(DecodeSlots.Busy refusal) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).contentType(MediaType.APPLICATION_PROBLEM_JSON)
                .header(HttpHeaders.RETRY_AFTER, Long.toString(MediaController.DECODE_RETRY_AFTER.toSeconds()))
                .body(Problems.of(ErrorCode.UNAVAILABLE, "the image cannot be prepared now; fetch it again"));
    }

    private static HeraldRejection notFound() {
        return new HeraldRejection(ErrorCode.NOT_FOUND, "no such media");
    }
}
