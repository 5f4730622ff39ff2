package io.herald.sandbox.wordpress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.platform.wire.Json;
import io.herald.sandbox.Replies;
import io.herald.sandbox.SandboxFault;
import io.herald.sandbox.SandboxImages;
import io.herald.sandbox.SandboxMedia;
import io.herald.sandbox.SandboxState.WordPressSite;
import io.herald.sandbox.SandboxState;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.Part;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.async.DeferredResult;

/** A site's {@code /wp/v2/media} routes: the upload, and one attachment's read, update and delete. */
@Component
@ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
class WordPressMedia {

    private static final String PROVIDER = WordPressRest.PROVIDER;
    private static final Map<String, String> IMAGE_EXTENSIONS = Map.of("jpg", "image/jpeg", "jpeg", "image/jpeg",
            "jpe", "image/jpeg", "png", "image/png", "gif", "image/gif", "webp", "image/webp", "bmp", "image/bmp",
            "tif", "image/tiff", "tiff", "image/tiff");
    private static final Map<String, String> EXTENSION_OF = Map.of("image/jpeg", "jpg", "image/png", "png",
            "image/gif", "gif", "image/webp", "webp", "image/bmp", "bmp", "image/tiff", "tif");

    private final SandboxState state;
    private final WordPressRest rest;

    WordPressMedia(WordPressRest rest) {
        this.state = rest.state();
        this.rest = rest;
    }

    /**
     * {@code POST /wp/v2/media}: the file's bytes as the body (with {@code Content-Type} and
     * {@code Content-Disposition: attachment; filename=…}) or as multipart part {@code file};
     * {@code alt_text}, {@code caption}, {@code title} as query or form fields. The file name's
     * extension decides whether the type is allowed; image bytes under another image extension
     * are renamed, anything else is refused with WordPress's 500.
     */
    DeferredResult<ResponseEntity<String>> upload(WordPressSite site, boolean authenticated, byte[] raw,
                                                  HttpServletRequest request, HttpServletResponse response)
            throws Exception {
        return rest.write(site, SandboxFault.Operation.UPLOAD, authenticated, response, WordPressErrors::cannotUpload,
                fault -> receive(site, raw, request, fault));
    }

    private DeferredResult<ResponseEntity<String>> receive(WordPressSite site, byte[] raw, HttpServletRequest request,
                                                          Optional<SandboxFault> fault)
            throws IOException, ServletException {
        boolean multipart = request.getContentType() != null
                && request.getContentType().toLowerCase(Locale.ROOT).startsWith("multipart/");
        byte[] bytes;
        String fileName;
        if (multipart) {
            Part file = request.getPart("file");
            if (file == null) {
                return Replies.now(state, WordPressErrors.error(400, "rest_upload_no_data", "No data supplied."));
            }
            bytes = file.getInputStream().readAllBytes();
            fileName = file.getSubmittedFileName();
        } else {
            bytes = raw;
            if (bytes.length == 0) {
                return Replies.now(state, WordPressErrors.error(400, "rest_upload_no_data", "No data supplied."));
            }
            if (request.getContentType() == null) {
                return Replies.now(state, WordPressErrors.error(400, "rest_upload_no_content_type",
                        "No Content-Type supplied."));
            }
            String disposition = request.getHeader("Content-Disposition");
            if (disposition == null) {
                return Replies.now(state, WordPressErrors.error(400, "rest_upload_no_content_disposition",
                        "No Content-Disposition supplied."));
            }
            fileName = fileName(disposition);
            String md5 = request.getHeader("Content-MD5");
            if (md5 != null && !md5.equalsIgnoreCase(md5Hex(bytes))) {
                return Replies.now(state, WordPressErrors.error(412, "rest_upload_hash_mismatch",
                        "Content hash did not match expected."));
            }
        }
        if (fileName == null || fileName.isBlank()) {
            return Replies.now(state, WordPressErrors.error(400, "rest_upload_invalid_disposition",
                    "Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as"
                            + " `attachment; filename=\"image.png\"` or similar."));
        }
        int dot = fileName.lastIndexOf('.');
        String extension = dot < 0 ? "" : fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
        Optional<String> sniffed = SandboxImages.type(bytes);
        if (!IMAGE_EXTENSIONS.containsKey(extension) || sniffed.isEmpty()) {
            return Replies.now(state, WordPressErrors.error(500,
                    multipart ? "rest_upload_unknown_error" : "rest_upload_sideload_error",
                    "Sorry, you are not allowed to upload this file type."));
        }
        String mime = sniffed.get();
        String stored = IMAGE_EXTENSIONS.get(extension).equals(mime) ? fileName
                // image bytes under another image extension: renamed to what they are
                : fileName.substring(0, dot + 1) + EXTENSION_OF.get(mime);
        SandboxImages.Size size = SandboxImages.size(bytes, mime).orElse(null);
        long id = state.nextId();
        String title = Optional.ofNullable(request.getParameter("title"))
                .orElse(stored.contains(".") ? stored.substring(0, stored.lastIndexOf('.')) : stored);
        String base = WordPressRest.siteBase(request, site.site());
        SandboxMedia attachment = new SandboxMedia(Long.toString(id), site.site(), mime, bytes.length,
                SandboxImages.sha256(bytes), size == null ? null : size.width(), size == null ? null : size.height(),
                Optional.ofNullable(request.getParameter("alt_text")).orElse(""),
                Optional.ofNullable(request.getParameter("caption")).orElse(""), title, stored, "inherit", null,
                Instant.now(), base + "/wp-content/uploads/2026/12/" + stored);
        return rest.faults().withEffect(fault, () -> state.media().put(PROVIDER, attachment), () -> {
            HttpHeaders headers = new HttpHeaders();
            headers.set("Location", base + "/?rest_route=/wp/v2/media/" + id);
            headers.set("X-WP-Upload-Attachment-ID", Long.toString(id));
            return Replies.json(201, renderMedia(attachment, base), headers);
        });
    }

    /** {@code GET}, {@code POST} (alt text, caption, title) and {@code DELETE ?force=true} of one attachment. */
    DeferredResult<ResponseEntity<String>> attachment(WordPressSite site, boolean authenticated, String id,
                                                      String rawBody, HttpServletRequest request,
                                                      HttpServletResponse response) {
        String method = request.getMethod();
        String base = WordPressRest.siteBase(request, site.site());
        if (method.equals("GET")) {
            return rest.faults().read(site.site(), response, WordPressErrors::forbiddenContext,
                    () -> known(site, id).map(m -> Replies.json(200, renderMedia(m, base), new HttpHeaders()))
                            .orElseGet(WordPressErrors::invalidId));
        }
        boolean delete = method.equals("DELETE");
        return rest.change(site, delete, authenticated, response, fault -> {
            Optional<SandboxMedia> known = known(site, id);
            if (known.isEmpty()) {
                return Replies.now(state, WordPressErrors.invalidId());
            }
            return delete ? delete(known.get(), request, base, fault)
                    : update(known.get(), rawBody, request, base, fault);
        });
    }

    private Optional<SandboxMedia> known(WordPressSite site, String id) {
        return state.media().find(PROVIDER, id).filter(m -> m.target().equals(site.site()));
    }

    private DeferredResult<ResponseEntity<String>> delete(SandboxMedia known, HttpServletRequest request, String base,
                                                         Optional<SandboxFault> fault) {
        if (!WordPressRest.forced(request)) {
            return Replies.now(state, WordPressErrors.error(501, "rest_trash_not_supported",
                    "The media does not support trashing. Set 'force=true' to delete."));
        }
        ObjectNode previous = renderMedia(known, base);
        return rest.faults().withEffect(fault, () -> {
            state.media().remove(PROVIDER, known.id());
            state.media().unfeature(PROVIDER, Long.parseLong(known.id()));
        }, () -> WordPressPostEdits.deleted(previous));
    }

    private DeferredResult<ResponseEntity<String>> update(SandboxMedia known, String rawBody,
                                                         HttpServletRequest request, String base,
                                                         Optional<SandboxFault> fault) {
        JsonNode body = rawBody == null ? Json.object() : Json.parse(rawBody);
        String alt = Optional.ofNullable(Json.text(body, "alt_text")).orElse(request.getParameter("alt_text"));
        String caption = Optional.ofNullable(Json.text(body, "caption")).orElse(request.getParameter("caption"));
        String title = Optional.ofNullable(Json.text(body, "title")).orElse(request.getParameter("title"));
        return rest.faults().withEffect(fault, () -> state.media().update(PROVIDER, known.id(), m -> m.withTexts(
                        alt != null ? alt : m.altText(), caption != null ? caption : m.caption(),
                        title != null ? title : m.title())),
                () -> Replies.json(200, renderMedia(state.media().find(PROVIDER, known.id()).orElse(known), base),
                        new HttpHeaders()));
    }

    private static ObjectNode renderMedia(SandboxMedia media, String siteBase) {
        ObjectNode node = Json.object();
        node.put("id", Long.parseLong(media.id()));
        String local = WordPressRest.LOCAL.format(media.createdAt().atOffset(ZoneOffset.UTC));
        node.put("date", local);
        node.put("date_gmt", local);
        node.put("slug", media.title().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-"));
        node.put("status", media.status());
        node.put("type", "attachment");
        node.put("link", siteBase + "/?attachment_id=" + media.id());
        node.putObject("title").put("raw", media.title()).put("rendered", media.title());
        node.put("author", WordPressRest.SITE_USER_ID);
        node.putObject("caption").put("raw", media.caption()).put("rendered",
                media.caption().isEmpty() ? "" : "<p>" + media.caption() + "</p>\n");
        node.put("alt_text", media.altText());
        node.put("media_type", "image");
        node.put("mime_type", media.contentType());
        ObjectNode details = node.putObject("media_details");
        if (media.width() != null) {
            details.put("width", media.width()).put("height", media.height());
        }
        details.put("file", "2026/12/" + media.fileName());
        details.put("filesize", media.bytes());
        details.putObject("sizes");
        node.putNull("post");
        node.put("source_url", media.sourceUrl());
        return node;
    }

    private static String fileName(String disposition) {
        try {
            return ContentDisposition.parse(disposition).getFilename();
        } catch (IllegalArgumentException unreadable) {
            return null;
        }
    }

    private static String md5Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
