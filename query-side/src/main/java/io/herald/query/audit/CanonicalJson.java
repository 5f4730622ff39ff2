package io.herald.query.audit;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * RFC 8785 (JSON Canonicalization Scheme) of a JSON tree: object members sorted by their names'
 * UTF-16 code units, no whitespace, strings escaped as ECMAScript's {@code JSON.stringify} escapes
 * them, numbers in ECMAScript's shortest form ({@code 3}, not {@code 3.0}). What an export line's
 * hash covers (docs/audit.md).
 */
public final class CanonicalJson {

    private CanonicalJson() {
    }

    public static String of(JsonNode node) {
        StringBuilder out = new StringBuilder(256);
        write(node, out);
        return out.toString();
    }

    private static void write(JsonNode node, StringBuilder out) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            out.append("null");
        } else if (node.isObject()) {
            List<Map.Entry<String, JsonNode>> members = new ArrayList<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                members.add(it.next());
            }
            // String.compareTo compares UTF-16 code units, as RFC 8785 asks
            members.sort(Map.Entry.comparingByKey());
            out.append('{');
            for (int i = 0; i < members.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                string(members.get(i).getKey(), out);
                out.append(':');
                write(members.get(i).getValue(), out);
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(node.get(i), out);
            }
            out.append(']');
        } else if (node.isTextual()) {
            string(node.textValue(), out);
        } else if (node.isBoolean()) {
            out.append(node.booleanValue());
        } else if (node.isNumber()) {
            number(node, out);
        } else {
            // binary and POJO nodes never come from parsed JSON
            string(node.asText(), out);
        }
    }

    private static void number(JsonNode node, StringBuilder out) {
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            out.append(node.longValue());
            return;
        }
        double value = node.doubleValue();
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            throw new IllegalArgumentException("JSON has no " + value);
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e21) {
            out.append(new BigDecimal(value).toPlainString());
            return;
        }
        // ECMAScript: the shortest digits that round-trip (Java's too), written plainly between
        // 1e-6 and 1e21, else as d.ddde±x
        BigDecimal shortest = new BigDecimal(Double.toString(value)).stripTrailingZeros();
        double magnitude = Math.abs(value);
        if (magnitude >= 1e-6 && magnitude < 1e21) {
            out.append(shortest.toPlainString());
            return;
        }
        String digits = shortest.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - shortest.scale();
        if (value < 0) {
            out.append('-');
        }
        out.append(digits.charAt(0));
        if (digits.length() > 1) {
            out.append('.').append(digits, 1, digits.length());
        }
        out.append('e').append(exponent < 0 ? "-" : "+").append(Math.abs(exponent));
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
