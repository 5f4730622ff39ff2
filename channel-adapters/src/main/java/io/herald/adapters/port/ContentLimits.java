package io.herald.adapters.port;

import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.publication.Content;
import io.herald.contracts.publication.PublicationAction;
import java.util.ArrayList;
import java.util.List;

/** Limits the adapters share when they validate a request (each adapter says which apply to it). */
public final class ContentLimits {

    private ContentLimits() {
    }

    /** Facebook and LinkedIn: a link or images, not both; a bounded number of images; a bounded comment. */
    public static List<FieldViolation> social(Content content, String provider, int maxImages, int commentMax) {
        List<FieldViolation> violations = new ArrayList<>(images(content, maxImages));
        return social(violations, content, provider, commentMax);
    }

    private static List<FieldViolation> social(List<FieldViolation> violations, Content content, String provider,
                                               int commentMax) {
        if (content.hasMedia() && content.link() != null && !content.link().isBlank()) {
            violations.add(new FieldViolation("content.link",
                    "a " + provider + " post has either a link or images, not both"));
        }
        String comment = content.firstComment();
        if (comment != null && comment.isBlank()) {
            violations.add(new FieldViolation("content.firstComment", "must not be blank; leave it out instead"));
        } else if (comment != null && comment.length() > commentMax) {
            violations.add(new FieldViolation("content.firstComment",
                    "a first comment is at most " + commentMax + " characters"));
        }
        return violations;
    }

    /** No drafts outside WordPress: Facebook's and LinkedIn's APIs publish directly. */
    public static List<FieldViolation> publishOnly(PublicationAction action) {
        return action == PublicationAction.DRAFT
                ? List.of(new FieldViolation("action", "draft is only available on WordPress channels")) : List.of();
    }

    public static boolean hasBody(Content content) {
        return content.body() != null && !content.body().isBlank();
    }

    public static List<FieldViolation> images(Content content, int maxImages) {
        if (content.media().size() > maxImages) {
            return List.of(new FieldViolation("content.media", "at most " + maxImages + " images"));
        }
        return List.of();
    }
}
