package io.herald.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.SandboxTestSupport;
import io.herald.platform.wire.Json;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** Facebook's photos, photo posts, comments, edits and deletes on the wire, as docs/channels.md#facebook-pages describes them. */
class FacebookSandboxOperationsTest extends SandboxTestSupport {

    private final SandboxHttp http = new SandboxHttp(sandbox.baseUrl());
    private final String page = numericId();
    private final String token = unique("EAAPage");
    private final String graph = sandbox.facebookGraphUrl();

    private String pageToken() {
        sandbox.facebookToken(token, page, SandboxState.FacebookTokenKind.PAGE);
        return token;
    }

    private HttpResponse<String> post(String path, HttpRequest.BodyPublisher form) {
        return http.send(http.request("POST", graph + path, form).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/x-www-form-urlencoded").build());
    }

    private HttpResponse<String> get(String path) {
        return http.send(http.request("GET", graph + path, HttpRequest.BodyPublishers.noBody())
                .header("Authorization", "Bearer " + token).build());
    }

    private HttpResponse<String> delete(String path) {
        return http.send(http.request("DELETE", graph + path, HttpRequest.BodyPublishers.noBody())
                .header("Authorization", "Bearer " + token).build());
    }

    private String unpublishedPhoto(String alt) {
        SandboxHttp.Multipart body = SandboxHttp.Multipart.of("source", "photo.png", "image/png",
                SandboxHttp.image("png", 30, 20), "published", "false", "alt_text_custom", alt);
        HttpResponse<String> uploaded = http.send(http.request("POST", graph + "/" + page + "/photos",
                        HttpRequest.BodyPublishers.ofByteArray(body.body()))
                .header("Authorization", "Bearer " + token).header("Content-Type", body.contentType()).build());
        assertThat(uploaded.statusCode()).as(uploaded.body()).isEqualTo(200);
        JsonNode json = Json.parse(uploaded.body());
        assertThat(json.has("post_id")).isFalse();
        return json.path("id").asText();
    }

    private static int code(HttpResponse<String> response) {
        return Json.parse(response.body()).path("error").path("code").asInt();
    }

    @Test
    void unpublishedPhotosAreAttachedToAPostInOrder() {
        pageToken();
        String first = unpublishedPhoto("a red door");
        String second = unpublishedPhoto("a blue gate");
        JsonNode media = sandbox.media("facebook", page);
        assertThat(media).hasSize(2);
        assertThat(media.get(0).path("status").asText()).isEqualTo("unpublished");
        assertThat(media.get(0).path("altText").asText()).isEqualTo("a red door");
        assertThat(media.get(0).path("width").asInt()).isEqualTo(30);
        assertThat(media.get(0).path("contentType").asText()).isEqualTo("image/png");

        HttpResponse<String> created = post("/" + page + "/feed", SandboxHttp.form("message", "two photos",
                "attached_media[0]", "{\"media_fbid\":\"" + first + "\"}",
                "attached_media[1]", "{\"media_fbid\":\"" + second + "\"}"));
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        String postId = Json.parse(created.body()).path("id").asText();
        assertThat(postId).startsWith(page + "_");

        JsonNode read = Json.parse(get("/" + postId + "?fields=id,message,attachments%7Btype,media,target,"
                + "subattachments%7D").body());
        assertThat(read.path("message").asText()).isEqualTo("two photos");
        JsonNode album = read.path("attachments").path("data").get(0);
        assertThat(album.path("type").asText()).isEqualTo("album");
        assertThat(album.path("subattachments").path("data").get(0).path("target").path("id").asText()).isEqualTo(first);
        assertThat(album.path("subattachments").path("data").get(1).path("target").path("id").asText()).isEqualTo(second);

        JsonNode truth = sandbox.truth("facebook", page).get(0);
        assertThat(truth.path("media").get(0).path("id").asText()).isEqualTo(first);
        assertThat(truth.path("media").get(1).path("altText").asText()).isEqualTo("a blue gate");
        assertThat(sandbox.media("facebook", page).get(0).path("postId").asText()).isEqualTo(postId);

        HttpResponse<String> again = post("/" + page + "/feed", SandboxHttp.form("message", "reused",
                "attached_media", "[{\"media_fbid\":\"" + first + "\"}]"));
        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(code(again)).isEqualTo(100);
        assertThat(Json.parse(again.body()).path("error").path("error_subcode").asInt()).isEqualTo(1366051);
        HttpResponse<String> unknown = post("/" + page + "/feed", SandboxHttp.form("message", "unknown",
                "attached_media[0]", "{\"media_fbid\":\"999\"}"));
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(code(unknown)).isEqualTo(100);
        assertThat(sandbox.truth("facebook", page)).hasSize(1);
    }

    @Test
    void onePhotoReadsBackAsAPhotoAttachment() {
        pageToken();
        String photo = unpublishedPhoto("one");
        String postId = Json.parse(post("/" + page + "/feed", SandboxHttp.form("message", "one photo",
                "attached_media", "[{\"media_fbid\":\"" + photo + "\"}]")).body()).path("id").asText();
        JsonNode read = Json.parse(get("/" + postId + "?fields=id,attachments,full_picture").body());
        JsonNode attachment = read.path("attachments").path("data").get(0);
        assertThat(attachment.path("type").asText()).isEqualTo("photo");
        assertThat(attachment.path("target").path("id").asText()).isEqualTo(photo);
        assertThat(read.path("full_picture").asText()).isNotEmpty();
    }

    @Test
    void photoUploadsAcceptAUrlAndRefuseWhatIsNoImage() {
        pageToken();
        HttpResponse<String> byUrl = http.send(http.request("POST", graph + "/" + page + "/photos",
                        HttpRequest.BodyPublishers.ofString("{\"url\":\"https://cdn.example/x.jpg\",\"published\":false}"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").build());
        assertThat(byUrl.statusCode()).as(byUrl.body()).isEqualTo(200);
        assertThat(sandbox.media("facebook", page).get(0).path("url").asText()).isEqualTo("https://cdn.example/x.jpg");

        HttpResponse<String> nothing = post("/" + page + "/photos", SandboxHttp.form("published", "false"));
        assertThat(code(nothing)).isEqualTo(324);
        assertThat(Json.parse(nothing.body()).path("error").path("message").asText()).isEqualTo("(#324) Requires upload file");

        SandboxHttp.Multipart text = SandboxHttp.Multipart.of("source", "x.png", "image/png",
                "not an image".getBytes(), "published", "false");
        HttpResponse<String> notImage = http.send(http.request("POST", graph + "/" + page + "/photos",
                        HttpRequest.BodyPublishers.ofByteArray(text.body()))
                .header("Authorization", "Bearer " + token).header("Content-Type", text.contentType()).build());
        assertThat(code(notImage)).isEqualTo(324);
        assertThat(Json.parse(notImage.body()).path("error").path("message").asText())
                .isEqualTo("(#324) Missing or invalid image file");

        HttpResponse<String> badUrl = post("/" + page + "/photos", SandboxHttp.form("url", "not a url"));
        assertThat(code(badUrl)).isEqualTo(100);
        assertThat(sandbox.media("facebook", page)).hasSize(1);
    }

    @Test
    void aPublishedPhotoIsAPhotoPost() {
        pageToken();
        SandboxHttp.Multipart body = SandboxHttp.Multipart.of("source", "p.jpg", "image/jpeg",
                SandboxHttp.image("jpg", 8, 8), "caption", "at once");
        HttpResponse<String> uploaded = http.send(http.request("POST", graph + "/" + page + "/photos",
                        HttpRequest.BodyPublishers.ofByteArray(body.body()))
                .header("Authorization", "Bearer " + token).header("Content-Type", body.contentType()).build());
        JsonNode json = Json.parse(uploaded.body());
        assertThat(json.path("post_id").asText()).startsWith(page + "_");
        JsonNode truth = sandbox.truth("facebook", page).get(0);
        assertThat(truth.path("id").asText()).isEqualTo(json.path("post_id").asText());
        assertThat(truth.path("text").asText()).isEqualTo("at once");
        assertThat(truth.path("media").get(0).path("id").asText()).isEqualTo(json.path("id").asText());
    }

    @Test
    void commentsAndRepliesAreListedApart() {
        pageToken();
        String postId = Json.parse(post("/" + page + "/feed", SandboxHttp.form("message", "comment me")).body())
                .path("id").asText();
        HttpResponse<String> comment = post("/" + postId + "/comments", SandboxHttp.form("message", "first!"));
        assertThat(comment.statusCode()).as(comment.body()).isEqualTo(200);
        String commentId = Json.parse(comment.body()).path("id").asText();
        assertThat(commentId).startsWith(postId.substring(postId.indexOf('_') + 1) + "_");
        String replyId = Json.parse(post("/" + commentId + "/comments", SandboxHttp.form("message", "a reply")).body())
                .path("id").asText();

        JsonNode top = Json.parse(get("/" + postId + "/comments").body()).path("data");
        assertThat(top).hasSize(1);
        assertThat(top.get(0).path("id").asText()).isEqualTo(commentId);
        assertThat(top.get(0).path("message").asText()).isEqualTo("first!");
        assertThat(top.get(0).path("from").path("id").asText()).isEqualTo(page);
        JsonNode replies = Json.parse(get("/" + commentId + "/comments").body()).path("data");
        assertThat(replies).hasSize(1);
        assertThat(replies.get(0).path("id").asText()).isEqualTo(replyId);

        HttpResponse<String> empty = post("/" + postId + "/comments", SandboxHttp.form("message", " "));
        assertThat(code(empty)).isEqualTo(100);
        JsonNode truth = sandbox.truth("facebook", page).get(0).path("comments");
        assertThat(truth).hasSize(2);
        assertThat(truth.get(1).path("parentId").asText()).isEqualTo(commentId);

        assertThat(Json.parse(delete("/" + commentId).body()).path("success").asBoolean()).isTrue();
        assertThat(sandbox.truth("facebook", page).get(0).has("comments")).isFalse();
    }

    @Test
    void anEditChangesTheTextAndTheSameEditAnswersTheSame() {
        pageToken();
        String postId = Json.parse(post("/" + page + "/feed", SandboxHttp.form("message", "typo")).body())
                .path("id").asText();
        HttpResponse<String> edited = post("/" + postId, SandboxHttp.form("message", "fixed"));
        HttpResponse<String> again = post("/" + postId, SandboxHttp.form("message", "fixed"));
        assertThat(edited.body()).isEqualTo("{\"success\":true}");
        assertThat(again.body()).isEqualTo("{\"success\":true}");
        assertThat(Json.parse(get("/" + postId + "?fields=message").body()).path("message").asText()).isEqualTo("fixed");
        JsonNode truth = sandbox.truth("facebook", page).get(0);
        assertThat(truth.path("text").asText()).isEqualTo("fixed");
        assertThat(truth.path("edits")).hasSize(2);

        HttpResponse<String> nothing = post("/" + postId, SandboxHttp.form("foo", "bar"));
        assertThat(code(nothing)).isEqualTo(100);
        assertThat(Json.parse(nothing.body()).path("error").path("message").asText())
                .isEqualTo("(#100) Parameters do not match any fields that can be updated");
    }

    @Test
    void aDeletedPostTakesItsPhotosAndEveryLaterCallSaysItDoesNotExist() {
        pageToken();
        String photo = unpublishedPhoto("gone");
        String postId = Json.parse(post("/" + page + "/feed", SandboxHttp.form("message", "to delete",
                "attached_media[0]", "{\"media_fbid\":\"" + photo + "\"}")).body()).path("id").asText();
        HttpResponse<String> photoAlone = delete("/" + photo);
        assertThat(Json.parse(photoAlone.body()).path("error").path("error_subcode").asInt()).isEqualTo(33);

        assertThat(delete("/" + postId).body()).isEqualTo("{\"success\":true}");
        assertThat(sandbox.truth("facebook", page)).isEmpty();
        JsonNode deleted = sandbox.deleted("facebook", page);
        assertThat(deleted).hasSize(1);
        assertThat(deleted.get(0).path("id").asText()).isEqualTo(postId);
        assertThat(deleted.get(0).path("how").asText()).isEqualTo("deleted");

        for (HttpResponse<String> later : java.util.List.of(delete("/" + postId), get("/" + postId),
                post("/" + postId, SandboxHttp.form("message", "edit")),
                post("/" + postId + "/comments", SandboxHttp.form("message", "hi")), get("/" + photo))) {
            JsonNode error = Json.parse(later.body()).path("error");
            assertThat(later.statusCode()).isEqualTo(400);
            assertThat(error.path("type").asText()).isEqualTo("GraphMethodException");
            assertThat(error.path("code").asInt()).isEqualTo(100);
            assertThat(error.path("error_subcode").asInt()).isEqualTo(33);
            assertThat(error.path("message").asText()).contains("Object with ID '").contains("does not exist");
        }
    }

    @Test
    void anotherPagesTokenMayNotTouchThePost() {
        pageToken();
        String postId = Json.parse(post("/" + page + "/feed", SandboxHttp.form("message", "mine")).body())
                .path("id").asText();
        String other = unique("EAAOther");
        sandbox.facebookToken(other, numericId(), SandboxState.FacebookTokenKind.PAGE);
        HttpResponse<String> edit = http.send(http.request("POST", graph + "/" + postId, SandboxHttp.form("message", "x"))
                .header("Authorization", "Bearer " + other)
                .header("Content-Type", "application/x-www-form-urlencoded").build());
        assertThat(code(edit)).isEqualTo(200);
        assertThat(sandbox.truth("facebook", page).get(0).path("text").asText()).isEqualTo("mine");
    }

    @Test
    void aPostWithoutPhotosReadsAsBefore() {
        pageToken();
        HttpResponse<String> created = post("/" + page + "/feed", SandboxHttp.form("message", "plain"));
        assertThat(created.body()).matches("\\{\"id\":\"" + page + "_\\d+\"}");
        JsonNode feed = Json.parse(get("/" + page + "/feed?fields=id,message,attachments").body());
        assertThat(feed.path("data").get(0).has("attachments")).isFalse();
        assertThat(sandbox.truth("facebook", page).get(0).has("media")).isFalse();
    }
}
