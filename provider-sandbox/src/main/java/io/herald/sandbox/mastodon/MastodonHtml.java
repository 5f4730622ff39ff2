package io.herald.sandbox.mastodon;

import java.text.BreakIterator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Mastodon instance makes of a status's plain text: its HTML {@code content} (paragraphs,
 * line breaks, links with their hidden parts in {@code invisible} spans, mentions shown without
 * their domain, hashtags), and its length as the status validator counts it (a URL as 23
 * characters, a mention {@code @user@domain} as {@code @user}, the rest in graphemes).
 */
final class MastodonHtml {

    static final int MAX_CHARACTERS = 500;
    static final int URL_CHARACTERS = 23;

    private static final Pattern URL = Pattern.compile("https?://[^\\s<>\"]+[^\\s<>\".,;:!?)\\]}']");
    private static final Pattern MENTION = Pattern.compile("(?<![\\w@])@(\\w+)(?:@([\\w.-]+\\w))?");
    private static final Pattern HASHTAG = Pattern.compile("(?<![\\w#])#(\\w+)");
    private static final Pattern ENTITY = Pattern.compile(URL.pattern() + "|" + MENTION.pattern() + "|"
            + HASHTAG.pattern());

    private MastodonHtml() {
    }

    static int length(String text) {
        String countable = Pattern.compile("(?<![\\w@])@(\\w+)@[\\w.-]+\\w").matcher(text).replaceAll("@$1");
        countable = URL.matcher(countable).replaceAll("x".repeat(URL_CHARACTERS));
        BreakIterator characters = BreakIterator.getCharacterInstance();
        characters.setText(countable);
        int count = 0;
        while (characters.next() != BreakIterator.DONE) {
            count++;
        }
        return count;
    }

    static String render(String text, String instance) {
        StringBuilder html = new StringBuilder();
        for (String paragraph : text.strip().split("\n{2,}")) {
            if (paragraph.isBlank()) {
                continue;
            }
            html.append("<p>");
            String[] lines = paragraph.split("\n");
            for (int i = 0; i < lines.length; i++) {
                if (i > 0) {
                    html.append("<br />");
                }
                html.append(line(lines[i], instance));
            }
            html.append("</p>");
        }
        return html.toString();
    }

    private static String line(String line, String instance) {
        StringBuilder out = new StringBuilder();
        Matcher entity = ENTITY.matcher(line);
        int at = 0;
        while (entity.find()) {
            out.append(escape(line.substring(at, entity.start())));
            String found = entity.group();
            if (found.startsWith("http")) {
                out.append(link(found));
            } else if (found.startsWith("@")) {
                Matcher mention = MENTION.matcher(found);
                mention.matches();
                String user = mention.group(1);
                String domain = mention.group(2) == null ? instance : "https://" + mention.group(2);
                out.append("<span class=\"h-card\" translate=\"no\"><a href=\"").append(escape(domain)).append("/@")
                        .append(escape(user)).append("\" class=\"u-url mention\">@<span>").append(escape(user))
                        .append("</span></a></span>");
            } else {
                String tag = found.substring(1);
                out.append("<a href=\"").append(escape(instance)).append("/tags/").append(escape(tag))
                        .append("\" class=\"mention hashtag\" rel=\"tag\">#<span>").append(escape(tag))
                        .append("</span></a>");
            }
            at = entity.end();
        }
        out.append(escape(line.substring(at)));
        return out.toString();
    }

    /** A link as Mastodon shows it: the scheme hidden, a long rest cut with an ellipsis, nothing lost. */
    private static String link(String url) {
        int schemeEnd = url.indexOf("://") + 3;
        String scheme = url.substring(0, schemeEnd);
        String rest = url.substring(schemeEnd);
        String shown = rest.length() > 30 ? rest.substring(0, 30) : rest;
        String hidden = rest.substring(shown.length());
        return "<a href=\"" + escape(url) + "\" target=\"_blank\" rel=\"nofollow noopener\" translate=\"no\">"
                + "<span class=\"invisible\">" + escape(scheme) + "</span><span class=\""
                + (hidden.isEmpty() ? "" : "ellipsis") + "\">" + escape(shown) + "</span><span class=\"invisible\">"
                + escape(hidden) + "</span></a>";
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#39;");
    }
}
