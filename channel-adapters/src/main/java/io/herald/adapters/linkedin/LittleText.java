package io.herald.adapters.linkedin;

/**
 * LinkedIn's "little text" format for {@code commentary}: the reserved characters must be
 * backslash-escaped, otherwise LinkedIn silently cuts the post at the first one.
 */
public final class LittleText {

    static final String RESERVED = "\\|{}@[]()<>#*_~";

    private LittleText() {
    }

    public static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (RESERVED.indexOf(c) >= 0) {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }

    public static String unescape(String text) {
        if (text == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length() && RESERVED.indexOf(text.charAt(i + 1)) >= 0) {
                out.append(text.charAt(++i));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
