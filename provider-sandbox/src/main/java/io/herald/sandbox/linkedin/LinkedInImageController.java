package io.herald.sandbox.linkedin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxImages;
import io.herald.sandbox.SandboxMedia;
import io.herald.sandbox.SandboxState.LinkedInToken;
import io.herald.sandbox.SandboxState;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

/** LinkedIn's Images API: registering an upload, the upload of the bytes, and the image's status. */
@RestController
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
class LinkedInImageController {

    private static final String PROVIDER = LinkedInRest.PROVIDER;
    private static final List<String> LINKEDIN_FORMATS = List.of("image/jpeg", "image/png", "image/gif");

    private final SandboxState state;
    private final LinkedInRest rest;
    /** Upload ids (the last segment of an upload URL) to the image they are for. */
    private final Map<String, String> uploads = new ConcurrentHashMap<>();

    LinkedInImageController(LinkedInRest rest) {
        this.state = rest.state();
        this.rest = rest;
    }

    /** {@code POST /rest/images?action=initializeUpload}: registers an image of the owner and names where its bytes go. */
    @PostMapping(value = "/sandbox/linkedin/rest/images", params = "action=initializeUpload")
    public DeferredResult<ResponseEntity<String>> initializeUpload(@RequestBody(required = false) String rawBody,
                                                                  HttpServletRequest request,
                                                                  HttpServletResponse response) {
        state.countRequest();
        String owner = Json.text(Json.parse(rawBody).path("initializeUploadRequest"), "owner");
        return rest.faults().write(owner, SandboxFault.Operation.INITIALIZE_UPLOAD, response,
                LinkedInErrors::invalidToken, fault -> {
                    ResponseEntity<String> refusal = rest.writer(request, owner,
                            "partnerApiImagesExternal.ACTION.20261101");
                    if (refusal != null) {
                        return Replies.now(state, refusal);
                    }
                    return register(owner, request, fault);
                });
    }

    private DeferredResult<ResponseEntity<String>> register(String owner, HttpServletRequest request,
                                                           Optional<SandboxFault> fault) {
        String uploadId = UUID.randomUUID().toString().replace("-", "");
        String urn = "urn:li:image:D4E10AQ" + uploadId.substring(0, 16);
        String uploadUrl = ServletUriComponentsBuilder.fromContextPath(request)
                .path("/sandbox/linkedin/dms-uploads/" + uploadId).build().toUriString();
        long expiresAt = Instant.now().plusSeconds(24 * 3600).toEpochMilli();
        SandboxMedia image = new SandboxMedia(urn, owner, null, 0, null, null, null, null, null, null, uploadId,
                "WAITING_UPLOAD", null, Instant.now(), "https://media.licdn.com/dms/image/" + urn.substring(13));
        return rest.faults().withEffect(fault, () -> {
            state.media().put(PROVIDER, image);
            uploads.put(uploadId, urn);
        }, () -> {
            ObjectNode body = Json.object();
            body.putObject("value").put("uploadUrlExpiresAt", expiresAt).put("uploadUrl", uploadUrl).put("image", urn);
            return Replies.json(200, body, LinkedInErrors.traceHeaders());
        });
    }

    /**
     * {@code PUT {uploadUrl}}: the image's bytes, with the owner's token → 201, no body, an ETag.
     * JPG, PNG and GIF become AVAILABLE at once; other bytes are taken, and the image's
     * processing fails, as LinkedIn reports it.
     */
    @PutMapping("/sandbox/linkedin/dms-uploads/{uploadId}")
    public DeferredResult<ResponseEntity<String>> upload(@PathVariable String uploadId,
                                                        @RequestBody(required = false) byte[] bytes,
                                                        HttpServletRequest request, HttpServletResponse response) {
        state.countRequest();
        Optional<SandboxMedia> image = Optional.ofNullable(uploads.get(uploadId))
                .flatMap(urn -> state.media().find(PROVIDER, urn));
        if (image.isEmpty()) {
            return Replies.now(state, LinkedInErrors.error(404, 0, "NOT_FOUND", "Upload not found"));
        }
        String owner = image.get().target();
        return rest.faults().write(owner, SandboxFault.Operation.UPLOAD, response, LinkedInErrors::invalidToken,
                fault -> {
                    Optional<LinkedInToken> token = rest.liveToken(LinkedInRest.bearer(request));
                    if (token.isEmpty()) {
                        return Replies.now(state, rest.tokenRefusal(LinkedInRest.bearer(request)));
                    }
                    if (!owner.equals(token.get().author())) {
                        return Replies.now(state, LinkedInErrors.error(403, 100, "ACCESS_DENIED",
                                "Not enough permissions to upload this image"));
                    }
                    return receive(image.get(), bytes == null ? new byte[0] : bytes, fault);
                });
    }

    private DeferredResult<ResponseEntity<String>> receive(SandboxMedia image, byte[] received,
                                                          Optional<SandboxFault> fault) {
        String type = SandboxImages.type(received).filter(LINKEDIN_FORMATS::contains).orElse(null);
        SandboxImages.Size size = type == null ? null : SandboxImages.size(received, type).orElse(null);
        String hash = SandboxImages.sha256(received);
        return rest.faults().withEffect(fault, () -> state.media().update(PROVIDER, image.id(),
                        m -> m.withBytes(type, received.length, hash, size == null ? null : size.width(),
                                size == null ? null : size.height(), type == null ? "PROCESSING_FAILED" : "AVAILABLE")),
                () -> {
                    HttpHeaders headers = LinkedInErrors.traceHeaders();
                    headers.setETag("\"" + hash.substring(0, 32) + "\"");
                    return ResponseEntity.status(HttpStatus.CREATED).headers(headers).build();
                });
    }

    /** {@code GET /rest/images/{urn}}: the image's status (WAITING_UPLOAD, AVAILABLE, PROCESSING_FAILED). */
    @GetMapping("/sandbox/linkedin/rest/images/{urn}")
    public DeferredResult<ResponseEntity<String>> image(@PathVariable String urn, HttpServletRequest request,
                                                       HttpServletResponse response) {
        state.countRequest();
        String owner = state.media().find(PROVIDER, urn).map(SandboxMedia::target).orElse(null);
        String token = LinkedInRest.bearer(request);
        return rest.faults().read(owner, response, LinkedInErrors::invalidToken, () -> {
            ResponseEntity<String> refusal = LinkedInRest.checkHeaders(request);
            if (refusal != null) {
                return refusal;
            }
            Optional<LinkedInToken> known = rest.liveToken(token);
            if (known.isEmpty()) {
                return rest.tokenRefusal(LinkedInRest.bearer(request));
            }
            Optional<SandboxMedia> now = state.media().find(PROVIDER, urn);
            if (now.isEmpty()) {
                return LinkedInErrors.notFound();
            }
            if (!now.get().target().equals(known.get().author())) {
                return LinkedInErrors.accessDenied("images.GET.20261101");
            }
            ObjectNode body = Json.object().put("owner", now.get().target()).put("status", now.get().status())
                    .put("id", urn);
            if ("AVAILABLE".equals(now.get().status())) {
                body.put("downloadUrl", now.get().sourceUrl())
                        .put("downloadUrlExpiresAt", Instant.now().plusSeconds(3600).toEpochMilli());
            }
            return Replies.json(200, body, LinkedInErrors.traceHeaders());
        });
    }
}
