package io.herald.adapters.http;

import java.text.BreakIterator;
import java.text.Normalizer;

/** Text comparison for read-back: what a provider stores may differ in whitespace and Unicode form. */
public final class Texts {

    private Texts() {
    }

    public static String normalise(String text) {
        if (text == null) {
            return "";
        }
        return Normalizer.normalize(text, Normalizer.Form.NFC)
                .replace("\r\n", "\n")
                .replaceAll("[\\s\\u00A0]+", " ")
                .trim();
    }

    public static boolean blank(String text) {
        return text == null || text.isBlank();
    }

    /** How many user-perceived characters (grapheme clusters) {@code text} has. */
    public static int graphemes(String text) {
        BreakIterator characters = BreakIterator.getCharacterInstance();
        characters.setText(text);
        int count = 0;
        while (characters.next() != BreakIterator.DONE) {
            count++;
        }
        return count;
    }
}
