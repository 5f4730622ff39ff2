package io.herald.adapters.http;

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
}
