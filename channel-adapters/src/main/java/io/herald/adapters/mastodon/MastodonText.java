package io.herald.adapters.mastodon;

import io.herald.adapters.http.Texts;
import io.herald.contracts.publication.Content;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text of a status, counted and compared as Mastodon does. A status is the body, with the link
 * on its own line where the body lacks it. Its length is counted as the instance's validator
 * counts it: every URL as {@value #URL_CHARACTERS} characters, a mention {@code @user@domain} as
 * {@code @user}, the rest in graphemes.
 *
 * <p>Read-back compares the HTML a status list shows, made plain here, because reading each
 * status's {@code /source} would cost one request per status in the window out of the account's
 * 300 per 5 minutes, which publishing shares. The HTML Mastodon renders from plain text keeps every
 * character of it (a link's hidden parts are in {@code invisible} spans, which are kept) except a
 * remote mention's domain and the line breaks: both sides are therefore compared in one form
 * ({@link #comparable}), mentions without their domain and whitespace collapsed. One status read by
 * its id uses {@code /source}, which is exact.
 */
final class MastodonText {

    static final int MAX_CHARACTERS = 500;
    static final int URL_CHARACTERS = 23;
    static final int MAX_IMAGES = 4;

    private static final Pattern URL = Pattern.compile("https?://[^\\s<>\"]+[^\\s<>\".,;:!?)\\]}']");
    private static final Pattern MENTION = Pattern.compile("(?<![\\w@])@(\\w+)@[\\w.-]+\\w");
    private static final Pattern BREAK = Pattern.compile("(?i)<br\\s*/?>");
    private static final Pattern PARAGRAPH = Pattern.compile("(?i)</p>\\s*<p[^>]*>");
    private static final Pattern TAG = Pattern.compile("<[^>]*>");
    private static final Pattern ENTITY = Pattern.compile("&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos|nbsp);");

    private MastodonText() {
    }

    /** The status's text: the body, and the link on its own line where the body lacks it. */
    static String of(Content content) {
        String body = content.body() == null ? "" : content.body().strip();
        String link = content.link();
        if (Texts.blank(link) || body.contains(link)) {
            return body;
        }
        return body.isEmpty() ? link : body + "\n\n" + link;
    }

    /** The length the instance counts. */
    static int length(String text) {
        String countable = MENTION.matcher(text).replaceAll("@$1");
        countable = URL.matcher(countable).replaceAll("x".repeat(URL_CHARACTERS));
        return Texts.graphemes(countable);
    }

    /** The text a status's HTML {@code content} shows, tags removed and entities read. */
    static String plain(String html) {
        if (html == null) {
            return "";
        }
        String text = PARAGRAPH.matcher(html).replaceAll("\n\n");
        text = BREAK.matcher(text).replaceAll("\n");
        text = TAG.matcher(text).replaceAll("");
        Matcher entity = ENTITY.matcher(text);
        StringBuilder out = new StringBuilder();
        while (entity.find()) {
            entity.appendReplacement(out, Matcher.quoteReplacement(unescape(entity.group(1))));
        }
        entity.appendTail(out);
        return out.toString();
    }

    /** The form both sides of a read-back are compared in: the reply it answers, then the text. */
    static String comparable(String inReplyToId, String text) {
        String mentions = MENTION.matcher(text == null ? "" : text).replaceAll("@$1");
        return "in reply to " + (inReplyToId == null ? "nothing" : inReplyToId) + ": " + Texts.normalise(mentions);
    }

    private static String unescape(String entity) {
        return switch (entity) {
            case "amp" -> "&";
            case "lt" -> "<";
            case "gt" -> ">";
            case "quot" -> "\"";
            case "apos" -> "'";
            case "nbsp" -> " ";
            default -> {
                int code = entity.startsWith("#x") ? Integer.parseInt(entity.substring(2), 16)
                        : Integer.parseInt(entity.substring(1));
                yield new String(Character.toChars(code));
            }
        };
    }
}
