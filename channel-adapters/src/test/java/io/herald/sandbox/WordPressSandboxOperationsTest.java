package io.herald.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.SandboxTestSupport;
import io.herald.platform.wire.Json;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** WordPress's media uploads, featured images, post updates and deletes (trash, force) on the wire. */
class WordPressSandboxOperationsTest extends SandboxTestSupport {

    private final SandboxHttp http = new SandboxHttp(sandbox.baseUrl());
    private final String site = unique("media");
    private final String auth = SandboxHttp.basic("editor", "abcd efgh");

    private String base() {
        sandbox.wordPressSite(site, "editor", "abcdefgh", false);
        return sandbox.wordPressSiteUrl(site);
    }

    private HttpResponse<String> upload(byte[] bytes, String contentType, String disposition, String query) {
        HttpRequest.Builder request = http.request("POST", base() + "/?rest_route=/wp/v2/media" + query,
                HttpRequest.BodyPublishers.ofByteArray(bytes)).header("Authorization", auth);
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (disposition != null) {
            request.header("Content-Disposition", disposition);
        }
        return http.send(request.build());
    }

    private HttpResponse<String> json(String method, String route, String body) {
        return http.send(http.request(method, base() + "/wp-json/wp/v2" + route,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .header("Authorization", auth).header("Content-Type", "application/json").build());
    }

    private long attachment() {
        HttpResponse<String> uploaded = upload(SandboxHttp.image("png", 40, 30), "image/png",
                "attachment; filename=\"chart.png\"", "&alt_text=" + SandboxHttp.enc("the chart"));
        assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);
        return Json.parse(uploaded.body()).path("id").asLong();
    }

    private static String code(HttpResponse<String> response) {
        return Json.parse(response.body()).path("code").asText();
    }

    @Test
    void aRawUploadIsAnAttachmentWithItsSizeAndAltText() {
        HttpResponse<String> uploaded = upload(SandboxHttp.image("png", 40, 30), "image/png",
                "attachment; filename=\"chart.png\"", "&alt_text=" + SandboxHttp.enc("the chart"));
        assertThat(uploaded.statusCode()).isEqualTo(201);
        JsonNode body = Json.parse(uploaded.body());
        String id = body.path("id").asText();
        assertThat(uploaded.headers().firstValue("X-WP-Upload-Attachment-ID")).contains(id);
        assertThat(uploaded.headers().firstValue("Location").orElseThrow()).endsWith("/wp/v2/media/" + id);
        assertThat(body.path("media_type").asText()).isEqualTo("image");
        assertThat(body.path("mime_type").asText()).isEqualTo("image/png");
        assertThat(body.path("alt_text").asText()).isEqualTo("the chart");
        assertThat(body.path("media_details").path("width").asInt()).isEqualTo(40);
        assertThat(body.path("media_details").path("height").asInt()).isEqualTo(30);
        assertThat(body.path("source_url").asText()).endsWith("/chart.png");
        assertThat(sandbox.media("wordpress", site).get(0).path("id").asText()).isEqualTo(id);
        assertThat(Json.parse(json("GET", "/media/" + id, null).body()).path("id").asText()).isEqualTo(id);
    }

    @Test
    void aMultipartUploadCarriesTheFileInPartFile() {
        base();
        SandboxHttp.Multipart body = SandboxHttp.Multipart.of("file", "photo.jpg", "image/jpeg",
                SandboxHttp.image("jpg", 5, 6), "alt_text", "from a form");
        HttpResponse<String> uploaded = http.send(http.request("POST", sandbox.wordPressSiteUrl(site)
                        + "/wp-json/wp/v2/media", HttpRequest.BodyPublishers.ofByteArray(body.body()))
                .header("Authorization", auth).header("Content-Type", body.contentType()).build());
        assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(201);
        assertThat(Json.parse(uploaded.body()).path("alt_text").asText()).isEqualTo("from a form");
        SandboxHttp.Multipart script = SandboxHttp.Multipart.of("file", "x.php", "image/png",
                SandboxHttp.image("png", 1, 1));
        HttpResponse<String> refused = http.send(http.request("POST", sandbox.wordPressSiteUrl(site)
                        + "/wp-json/wp/v2/media", HttpRequest.BodyPublishers.ofByteArray(script.body()))
                .header("Authorization", auth).header("Content-Type", script.contentType()).build());
        assertThat(refused.statusCode()).isEqualTo(500);
        assertThat(code(refused)).isEqualTo("rest_upload_unknown_error");
    }

    @Test
    void uploadsAreRefusedAsWordPressRefusesThem() {
        byte[] png = SandboxHttp.image("png", 3, 3);
        assertThat(code(upload(new byte[0], "image/png", "attachment; filename=\"a.png\"", ""))).isEqualTo("rest_upload_no_data");
        assertThat(code(upload(png, null, "attachment; filename=\"a.png\"", ""))).isEqualTo("rest_upload_no_content_type");
        assertThat(code(upload(png, "image/png", null, ""))).isEqualTo("rest_upload_no_content_disposition");
        assertThat(code(upload(png, "image/png", "attachment", ""))).isEqualTo("rest_upload_invalid_disposition");
        HttpResponse<String> md5 = http.send(http.request("POST", base() + "/?rest_route=/wp/v2/media",
                        HttpRequest.BodyPublishers.ofByteArray(png)).header("Authorization", auth)
                .header("Content-Type", "image/png").header("Content-Disposition", "attachment; filename=\"a.png\"")
                .header("Content-MD5", "00000000000000000000000000000000").build());
        assertThat(md5.statusCode()).isEqualTo(412);
        assertThat(code(md5)).isEqualTo("rest_upload_hash_mismatch");
        HttpResponse<String> exe = upload(png, "image/png", "attachment; filename=\"a.exe\"", "");
        assertThat(exe.statusCode()).isEqualTo(500);
        assertThat(code(exe)).isEqualTo("rest_upload_sideload_error");
        assertThat(Json.parse(exe.body()).path("message").asText())
                .isEqualTo("Sorry, you are not allowed to upload this file type.");
        assertThat(code(upload("text".getBytes(), "image/png", "attachment; filename=\"a.png\"", "")))
                .isEqualTo("rest_upload_sideload_error");
        HttpResponse<String> anonymous = http.send(http.request("POST", base() + "/?rest_route=/wp/v2/media",
                        HttpRequest.BodyPublishers.ofByteArray(png)).header("Content-Type", "image/png")
                .header("Content-Disposition", "attachment; filename=\"a.png\"").build());
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(code(anonymous)).isEqualTo("rest_cannot_create");
        assertThat(sandbox.media("wordpress", site)).isEmpty();

        HttpResponse<String> renamed = upload(SandboxHttp.image("jpg", 2, 2), "image/png",
                "attachment; filename=\"x.png\"", "");
        assertThat(renamed.statusCode()).isEqualTo(201);
        assertThat(Json.parse(renamed.body()).path("mime_type").asText()).isEqualTo("image/jpeg");
        assertThat(Json.parse(renamed.body()).path("source_url").asText()).endsWith("/x.jpg");
    }

    @Test
    void theFeaturedImageIsSetIgnoredRemovedAndClearedWithItsAttachment() {
        long image = attachment();
        HttpResponse<String> created = json("POST", "/posts", "{\"title\":\"t\",\"content\":\"<p>c</p>\","
                + "\"status\":\"publish\",\"featured_media\":" + image + "}");
        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode post = Json.parse(created.body());
        assertThat(post.path("featured_media").asLong()).isEqualTo(image);
        long postId = post.path("id").asLong();
        assertThat(sandbox.truth("wordpress", site).get(0).path("featuredMedia").asLong()).isEqualTo(image);

        HttpResponse<String> notAnImage = json("POST", "/posts", "{\"title\":\"u\",\"status\":\"publish\","
                + "\"featured_media\":" + postId + "}");
        assertThat(notAnImage.statusCode()).isEqualTo(201);
        assertThat(Json.parse(notAnImage.body()).path("featured_media").asLong()).isZero();
        HttpResponse<String> text = json("POST", "/posts", "{\"title\":\"v\",\"featured_media\":\"abc\"}");
        assertThat(text.statusCode()).isEqualTo(400);
        assertThat(code(text)).isEqualTo("rest_invalid_param");

        HttpResponse<String> trash = json("DELETE", "/media/" + image, null);
        assertThat(trash.statusCode()).isEqualTo(501);
        assertThat(code(trash)).isEqualTo("rest_trash_not_supported");
        HttpResponse<String> deleted = json("DELETE", "/media/" + image + "?force=true", null);
        assertThat(Json.parse(deleted.body()).path("deleted").asBoolean()).isTrue();
        assertThat(Json.parse(deleted.body()).path("previous").path("id").asLong()).isEqualTo(image);
        JsonNode after = Json.parse(json("GET", "/posts/" + postId + "?context=edit", null).body());
        assertThat(after.path("featured_media").asLong()).isZero();
        assertThat(sandbox.media("wordpress", site)).isEmpty();
    }

    @Test
    void anUpdateChangesOnlyTheFieldsSent() {
        long image = attachment();
        long id = Json.parse(json("POST", "/posts", "{\"title\":\"Title\",\"content\":\"old\",\"status\":\"publish\"}")
                .body()).path("id").asLong();
        HttpResponse<String> updated = json("POST", "/posts/" + id, "{\"content\":\"new\",\"featured_media\":" + image + "}");
        assertThat(updated.statusCode()).as(updated.body()).isEqualTo(200);
        JsonNode body = Json.parse(updated.body());
        assertThat(body.path("content").path("raw").asText()).isEqualTo("new");
        assertThat(body.path("title").path("raw").asText()).isEqualTo("Title");
        assertThat(body.path("featured_media").asLong()).isEqualTo(image);
        HttpResponse<String> put = json("PUT", "/posts/" + id, "{\"featured_media\":0}");
        assertThat(Json.parse(put.body()).path("featured_media").asLong()).isZero();
        JsonNode truth = sandbox.truth("wordpress", site).get(0);
        assertThat(truth.path("text").asText()).isEqualTo("new");
        assertThat(truth.path("edits")).hasSize(2);

        assertThat(code(json("POST", "/posts/999999999", "{\"content\":\"x\"}"))).isEqualTo("rest_post_invalid_id");
        HttpResponse<String> anonymous = http.send(http.request("POST", sandbox.wordPressSiteUrl(site)
                + "/wp-json/wp/v2/posts/" + id, HttpRequest.BodyPublishers.ofString("{\"content\":\"x\"}"))
                .header("Content-Type", "application/json").build());
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(code(anonymous)).isEqualTo("rest_cannot_edit");
    }

    @Test
    void aDeleteTrashesThenForceDeletes() {
        long id = Json.parse(json("POST", "/posts", "{\"title\":\"bye\",\"content\":\"c\",\"status\":\"publish\"}")
                .body()).path("id").asLong();
        HttpResponse<String> trashed = json("DELETE", "/posts/" + id, null);
        assertThat(trashed.statusCode()).isEqualTo(200);
        assertThat(Json.parse(trashed.body()).path("status").asText()).isEqualTo("trash");
        assertThat(Json.parse(trashed.body()).path("slug").asText()).endsWith("__trashed");
        HttpResponse<String> again = json("DELETE", "/posts/" + id, null);
        assertThat(again.statusCode()).isEqualTo(410);
        assertThat(code(again)).isEqualTo("rest_already_trashed");
        assertThat(Json.parse(json("GET", "/posts", null).body())).isEmpty();

        HttpResponse<String> forced = json("DELETE", "/posts/" + id + "?force=true", null);
        assertThat(forced.statusCode()).isEqualTo(200);
        assertThat(Json.parse(forced.body()).path("deleted").asBoolean()).isTrue();
        assertThat(Json.parse(forced.body()).path("previous").path("id").asLong()).isEqualTo(id);
        HttpResponse<String> gone = json("DELETE", "/posts/" + id + "?force=true", null);
        assertThat(gone.statusCode()).isEqualTo(404);
        assertThat(code(gone)).isEqualTo("rest_post_invalid_id");
        assertThat(json("GET", "/posts/" + id, null).statusCode()).isEqualTo(404);
        assertThat(sandbox.truth("wordpress", site)).isEmpty();
        JsonNode deletions = sandbox.deleted("wordpress", site);
        assertThat(deletions).hasSize(2);
        assertThat(deletions.get(0).path("how").asText()).isEqualTo("trash");
        assertThat(deletions.get(1).path("how").asText()).isEqualTo("force");
    }

    @Test
    void aPostWithoutAFeaturedImageRendersAsBefore() {
        JsonNode post = Json.parse(json("POST", "/posts", "{\"title\":\"plain\",\"content\":\"c\"}").body());
        assertThat(post.has("featured_media")).isFalse();
        assertThat(post.path("slug").asText()).isEqualTo("post-" + post.path("id").asText());
        assertThat(json("PUT", "/posts", "{}").statusCode()).isEqualTo(404);
    }
}
