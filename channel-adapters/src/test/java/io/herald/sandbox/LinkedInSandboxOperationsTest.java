package io.herald.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.herald.adapters.SandboxTestSupport;
import io.herald.platform.wire.Json;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/** LinkedIn's images API, posts with images, partial updates, deletes and comments on the wire. */
class LinkedInSandboxOperationsTest extends SandboxTestSupport {

    private final SandboxHttp http = new SandboxHttp(sandbox.baseUrl());
    private final String author = "urn:li:person:" + unique("p");
    private final String writer = unique("li-w");
    private final String reader = unique("li-r");
    private final String api = sandbox.linkedInApiUrl();

    private void tokens() {
        sandbox.linkedInToken(writer, author, List.of("w_member_social"));
        sandbox.linkedInToken(reader, author, List.of("w_member_social", "r_member_social"));
    }

    private HttpRequest.Builder call(String method, String path, String json, String token) {
        HttpRequest.Builder request = http.request(method, path.startsWith("http") ? path : api + path,
                        json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .header("Authorization", "Bearer " + token).header("LinkedIn-Version", "202611")
                .header("X-Restli-Protocol-Version", "2.0.0");
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        return request;
    }

    private JsonNode initialize(String owner) {
        HttpResponse<String> init = http.send(call("POST", "/rest/images?action=initializeUpload",
                "{\"initializeUploadRequest\":{\"owner\":\"" + owner + "\"}}", writer).build());
        assertThat(init.statusCode()).as(init.body()).isEqualTo(200);
        return Json.parse(init.body()).path("value");
    }

    private String uploadedImage(byte[] bytes) {
        JsonNode value = initialize(author);
        HttpResponse<String> put = http.send(http.request("PUT", value.path("uploadUrl").asText(),
                HttpRequest.BodyPublishers.ofByteArray(bytes)).header("Authorization", "Bearer " + writer).build());
        assertThat(put.statusCode()).isEqualTo(201);
        assertThat(put.body()).isEmpty();
        assertThat(put.headers().firstValue("ETag")).isPresent();
        return value.path("image").asText();
    }

    private static String enc(String urn) {
        return SandboxHttp.enc(urn);
    }

    private String post(String body) {
        HttpResponse<String> created = http.send(call("POST", "/rest/posts", body, writer).build());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        return created.headers().firstValue("x-restli-id").orElseThrow();
    }

    private String textPost(String commentary) {
        return post("{\"author\":\"" + author + "\",\"commentary\":\"" + commentary + "\",\"visibility\":\"PUBLIC\","
                + "\"lifecycleState\":\"PUBLISHED\"}");
    }

    @Test
    void anImageIsInitializedUploadedAndThenPosted() {
        tokens();
        JsonNode value = initialize(author);
        String image = value.path("image").asText();
        assertThat(image).startsWith("urn:li:image:");
        assertThat(value.path("uploadUrl").asText()).contains("/dms-uploads/").doesNotContain("/rest/");
        assertThat(value.path("uploadUrlExpiresAt").asLong()).isGreaterThan(System.currentTimeMillis());
        JsonNode waiting = Json.parse(http.send(call("GET", "/rest/images/" + enc(image), null, writer).build()).body());
        assertThat(waiting.path("status").asText()).isEqualTo("WAITING_UPLOAD");
        assertThat(waiting.path("owner").asText()).isEqualTo(author);

        HttpResponse<String> put = http.send(http.request("PUT", value.path("uploadUrl").asText(),
                        HttpRequest.BodyPublishers.ofByteArray(SandboxHttp.image("png", 12, 9)))
                .header("Authorization", "Bearer " + writer).build());
        assertThat(put.statusCode()).isEqualTo(201);
        JsonNode available = Json.parse(http.send(call("GET", "/rest/images/" + enc(image), null, writer).build()).body());
        assertThat(available.path("status").asText()).isEqualTo("AVAILABLE");
        assertThat(available.path("downloadUrl").asText()).isNotEmpty();

        String urn = post("{\"author\":\"" + author + "\",\"commentary\":\"with an image\",\"visibility\":\"PUBLIC\","
                + "\"lifecycleState\":\"PUBLISHED\",\"content\":{\"media\":{\"id\":\"" + image
                + "\",\"altText\":\"a chart\"}}}");
        JsonNode read = Json.parse(http.send(call("GET", "/rest/posts/" + enc(urn), null, reader).build()).body());
        assertThat(read.path("content").path("media").path("id").asText()).isEqualTo(image);
        assertThat(read.path("content").path("media").path("altText").asText()).isEqualTo("a chart");
        JsonNode truth = sandbox.truth("linkedin", author).get(0);
        assertThat(truth.path("media").get(0).path("altText").asText()).isEqualTo("a chart");
        JsonNode media = sandbox.media("linkedin", author).get(0);
        assertThat(media.path("status").asText()).isEqualTo("AVAILABLE");
        assertThat(media.path("width").asInt()).isEqualTo(12);
    }

    @Test
    void aMultiImagePostHasTwoToTwentyAvailableImagesOfTheAuthor() {
        tokens();
        String a = uploadedImage(SandboxHttp.image("png", 2, 2));
        String b = uploadedImage(SandboxHttp.image("gif", 3, 3));
        String c = uploadedImage(SandboxHttp.image("jpg", 4, 4));
        String urn = post("{\"author\":\"" + author + "\",\"commentary\":\"three\",\"content\":{\"multiImage\":"
                + "{\"images\":[{\"id\":\"" + a + "\",\"altText\":\"A\"},{\"id\":\"" + b + "\",\"altText\":\"B\"},"
                + "{\"id\":\"" + c + "\",\"altText\":\"C\"}]}}}");
        JsonNode images = Json.parse(http.send(call("GET", "/rest/posts/" + enc(urn), null, reader).build()).body())
                .path("content").path("multiImage").path("images");
        assertThat(images).hasSize(3);
        assertThat(images.get(2).path("id").asText()).isEqualTo(c);

        HttpResponse<String> one = http.send(call("POST", "/rest/posts", "{\"author\":\"" + author
                + "\",\"commentary\":\"one in multi\",\"content\":{\"multiImage\":{\"images\":[{\"id\":\"" + a
                + "\"}]}}}", writer).build());
        assertThat(one.statusCode()).isEqualTo(422);
        assertThat(Json.parse(one.body()).path("errorDetails").path("inputErrors").get(0).path("code").asText())
                .isEqualTo("INVALID_MULTI_IMAGE");

        String waiting = initialize(author).path("image").asText();
        HttpResponse<String> notUploaded = http.send(call("POST", "/rest/posts", "{\"author\":\"" + author
                + "\",\"commentary\":\"waiting\",\"content\":{\"media\":{\"id\":\"" + waiting + "\"}}}", writer).build());
        assertThat(notUploaded.statusCode()).isEqualTo(422);
        assertThat(Json.parse(notUploaded.body()).path("status").asInt()).isEqualTo(422);

        String otherAuthor = "urn:li:person:" + unique("o");
        String otherToken = unique("li-o");
        sandbox.linkedInToken(otherToken, otherAuthor, List.of("w_member_social"));
        HttpResponse<String> foreign = http.send(call("POST", "/rest/posts", "{\"author\":\"" + otherAuthor
                + "\",\"commentary\":\"not mine\",\"content\":{\"media\":{\"id\":\"" + a + "\"}}}", otherToken).build());
        assertThat(foreign.statusCode()).isEqualTo(422);
        assertThat(sandbox.truth("linkedin", author)).hasSize(1);
        assertThat(sandbox.truth("linkedin", otherAuthor)).isEmpty();
    }

    @Test
    void onlyTheOwnerMayInitializeAndBytesThatAreNoImageFailProcessing() {
        tokens();
        HttpResponse<String> foreign = http.send(call("POST", "/rest/images?action=initializeUpload",
                "{\"initializeUploadRequest\":{\"owner\":\"urn:li:person:someone-else\"}}", writer).build());
        assertThat(foreign.statusCode()).isEqualTo(403);
        assertThat(Json.parse(foreign.body()).path("code").asText()).isEqualTo("ACCESS_DENIED");
        JsonNode value = initialize(author);
        http.send(http.request("PUT", value.path("uploadUrl").asText(),
                HttpRequest.BodyPublishers.ofString("%PDF-1.4")).header("Authorization", "Bearer " + writer).build());
        JsonNode image = Json.parse(http.send(call("GET", "/rest/images/" + enc(value.path("image").asText()), null,
                writer).build()).body());
        assertThat(image.path("status").asText()).isEqualTo("PROCESSING_FAILED");
    }

    @Test
    void aPartialUpdateChangesOnlyTheTextWithTheLittleTextRules() {
        tokens();
        String urn = textPost("before");
        HttpResponse<String> updated = http.send(call("POST", "/rest/posts/" + enc(urn),
                "{\"patch\":{\"$set\":{\"commentary\":\"after \\\\(fixed\\\\) (cut\"}}}", writer)
                .header("X-RestLi-Method", "PARTIAL_UPDATE").build());
        assertThat(updated.statusCode()).as(updated.body()).isEqualTo(204);
        JsonNode truth = sandbox.truth("linkedin", author).get(0);
        assertThat(truth.path("text").asText()).isEqualTo("after (fixed) ");
        assertThat(truth.path("edits")).hasSize(1);
        JsonNode read = Json.parse(http.send(call("GET", "/rest/posts/" + enc(urn), null, reader).build()).body());
        assertThat(read.path("lifecycleStateInfo").path("isEditedByAuthor").asBoolean()).isTrue();
        assertThat(read.path("commentary").asText()).isEqualTo("after \\(fixed\\) (cut");

        HttpResponse<String> noMethod = http.send(call("POST", "/rest/posts/" + enc(urn),
                "{\"patch\":{\"$set\":{\"commentary\":\"x\"}}}", writer).build());
        assertThat(noMethod.statusCode()).isEqualTo(400);
        HttpResponse<String> media = http.send(call("POST", "/rest/posts/" + enc(urn),
                "{\"patch\":{\"$set\":{\"content\":{\"media\":{\"id\":\"urn:li:image:x\"}}}}}", writer)
                .header("X-RestLi-Method", "PARTIAL_UPDATE").build());
        assertThat(media.statusCode()).isEqualTo(422);
        assertThat(sandbox.truth("linkedin", author).get(0).path("edits")).hasSize(1);
    }

    @Test
    void aDeleteIsIdempotentAndTheUrnThenReadsNotFound() {
        tokens();
        String urn = textPost("short-lived");
        assertThat(http.send(call("DELETE", "/rest/posts/" + enc(urn), null, writer).build()).statusCode()).isEqualTo(204);
        assertThat(http.send(call("DELETE", "/rest/posts/" + enc(urn), null, writer).build()).statusCode()).isEqualTo(204);
        assertThat(http.send(call("GET", "/rest/posts/" + enc(urn), null, reader).build()).statusCode()).isEqualTo(404);
        assertThat(sandbox.truth("linkedin", author)).isEmpty();
        assertThat(sandbox.deleted("linkedin", author).get(0).path("id").asText()).isEqualTo(urn);
        assertThat(sandbox.deleted("linkedin", author)).hasSize(1);
        assertThat(http.send(call("DELETE", "/rest/posts/" + enc("urn:li:share:1"), null, writer).build())
                .statusCode()).isEqualTo(404);
    }

    @Test
    void commentsAreWrittenWithTheWriteScopeAndReadOnlyWithTheReadScope() {
        tokens();
        String urn = textPost("discuss");
        HttpResponse<String> created = http.send(call("POST", "/rest/socialActions/" + enc(urn) + "/comments",
                "{\"actor\":\"" + author + "\",\"object\":\"" + urn + "\",\"message\":{\"text\":\"first comment\"}}",
                writer).build());
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        JsonNode comment = Json.parse(created.body());
        assertThat(comment.path("commentUrn").asText()).startsWith("urn:li:comment:(" + urn + ",");
        assertThat(comment.path("message").path("text").asText()).isEqualTo("first comment");
        assertThat(comment.path("created").path("time").asLong()).isPositive();

        assertThat(http.send(call("GET", "/rest/socialActions/" + enc(urn) + "/comments", null, writer).build())
                .statusCode()).isEqualTo(403);
        JsonNode listed = Json.parse(http.send(call("GET", "/rest/socialActions/" + enc(urn) + "/comments", null,
                reader).build()).body());
        assertThat(listed.path("paging").path("total").asInt()).isEqualTo(1);
        assertThat(listed.path("elements").get(0).path("message").path("text").asText()).isEqualTo("first comment");
        assertThat(sandbox.truth("linkedin", author).get(0).path("comments")).hasSize(1);

        http.send(call("DELETE", "/rest/posts/" + enc(urn), null, writer).build());
        assertThat(http.send(call("POST", "/rest/socialActions/" + enc(urn) + "/comments",
                "{\"actor\":\"" + author + "\",\"message\":{\"text\":\"too late\"}}", writer).build()).statusCode())
                .isEqualTo(404);
    }
}
