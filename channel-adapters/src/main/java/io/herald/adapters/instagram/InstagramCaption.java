package io.herald.adapters.instagram;

import io.herald.adapters.http.Texts;
import io.herald.contracts.publication.Content;

/** The caption Herald writes for a content: its body, and its link below where the body lacks it. */
final class InstagramCaption {

    static final int MAX_CHARACTERS = 2_200;
    static final int MAX_HASHTAGS = 30;
    static final int MAX_IMAGES = 10;

    private InstagramCaption() {
    }

    static String of(Content content) {
        String body = content.body() == null ? "" : content.body().strip();
        String link = content.link();
        if (Texts.blank(link) || body.contains(link)) {
            return body;
        }
        return body.isEmpty() ? link : body + "\n\n" + link;
    }

    static long hashtags(String caption) {
        return java.util.regex.Pattern.compile("(^|\\s)#\\w").matcher(caption).results().count();
    }
}
