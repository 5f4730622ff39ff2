package io.herald.adapters.bluesky;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.adapters.http.Texts;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.UploadedMedia;
import io.herald.platform.wire.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The records Herald writes on Bluesky, built only from the publication's content and its derived
 * key, so that each attempt sends the same bytes. The text is the body, with the link on its own
 * line when the body does not already carry it; each URL in it is a link facet (offsets in UTF-8
 * bytes, as the protocol counts them). The embed is the uploaded images, else a card for the
 * link (its title the content's title or the link; nothing is fetched).
 */
final class BlueskyPosts {

    static final String POST_COLLECTION = "app.bsky.feed.post";
    static final int MAX_GRAPHEMES = 300;
    static final int MAX_BYTES = 3000;
    static final int MAX_IMAGES = 4;

    private static final Pattern URL = Pattern.compile("https?://[^\\s<>\"]+");
    private static final String TRAILING_PUNCTUATION = ".,;:!?)]}'\"";

    private BlueskyPosts() {
    }

    /** The post's text: the body, and the link on its own line where the body lacks it. */
    static String text(Content content) {
        String body = content.body() == null ? "" : content.body().strip();
        String link = content.link();
        if (Texts.blank(link) || body.contains(link)) {
            return body;
        }
        return body.isEmpty() ? link : body + "\n\n" + link;
    }

    /** How many user-perceived characters {@code text} has, as the app counts them. */
    static int graphemes(String text) {
        return Texts.graphemes(text);
    }

    static int bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** The post record. */
    static ObjectNode post(Content content, List<UploadedMedia> uploads, BlueskyKeys.Key key) {
        String text = text(content);
        ObjectNode record = record(text, key);
        List<String> links = new ArrayList<>();
        ArrayNode facets = facets(text, links);
        if (!facets.isEmpty()) {
            record.set("facets", facets);
        }
        if (!uploads.isEmpty()) {
            ObjectNode embed = record.putObject("embed").put("$type", "app.bsky.embed.images");
            ArrayNode images = embed.putArray("images");
            for (UploadedMedia upload : uploads) {
                BlueskyBlob blob = BlueskyBlob.parse(upload.providerRef().id());
                ObjectNode image = images.addObject();
                image.set("image", blob.json());
                image.put("alt", upload.altText() == null ? "" : upload.altText());
                if (blob.width() > 0 && blob.height() > 0) {
                    image.putObject("aspectRatio").put("width", blob.width()).put("height", blob.height());
                }
            }
        } else {
            String link = !Texts.blank(content.link()) ? content.link() : links.isEmpty() ? null : links.get(0);
            if (link != null) {
                String title = !Texts.blank(content.title()) ? content.title().strip() : link;
                record.putObject("embed").put("$type", "app.bsky.embed.external").putObject("external")
                        .put("uri", link).put("title", title).put("description", link);
            }
        }
        return record;
    }

    /** The first comment: a reply whose root and parent are the post. */
    static ObjectNode reply(String text, String postUri, String postCid, BlueskyKeys.Key key) {
        ObjectNode record = record(text, key);
        ArrayNode facets = facets(text, new ArrayList<>());
        if (!facets.isEmpty()) {
            record.set("facets", facets);
        }
        ObjectNode reply = record.putObject("reply");
        reply.putObject("root").put("uri", postUri).put("cid", postCid);
        reply.putObject("parent").put("uri", postUri).put("cid", postCid);
        return record;
    }

    /** The text a stored record carries. */
    static String textOf(JsonNode value) {
        return value.path("text").asText("");
    }

    private static ObjectNode record(String text, BlueskyKeys.Key key) {
        ObjectNode record = Json.object();
        record.put("$type", POST_COLLECTION);
        record.put("text", text);
        record.put("createdAt", key.createdAt());
        return record;
    }

    private static ArrayNode facets(String text, List<String> links) {
        ArrayNode facets = Json.MAPPER.createArrayNode();
        Matcher matcher = URL.matcher(text);
        while (matcher.find()) {
            String uri = matcher.group();
            while (!uri.isEmpty() && TRAILING_PUNCTUATION.indexOf(uri.charAt(uri.length() - 1)) >= 0) {
                uri = uri.substring(0, uri.length() - 1);
            }
            if (uri.length() <= "https://".length()) {
                continue;
            }
            int byteStart = bytes(text.substring(0, matcher.start()));
            ObjectNode facet = facets.addObject();
            facet.putObject("index").put("byteStart", byteStart).put("byteEnd", byteStart + bytes(uri));
            facet.putArray("features").addObject().put("$type", "app.bsky.richtext.facet#link").put("uri", uri);
            links.add(uri);
        }
        return facets;
    }
}
