package io.herald.deploy.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.junit.jupiter.api.Test;

/**
 * Every {@code pattern} of the committed contract matches the whole value, as the server's
 * {@code @Pattern} does (a JSON Schema pattern matches anywhere in the value unless anchored), and
 * uses only what an ECMA-262 engine reads the way Java does.
 */
class OpenApiPatternsTest {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** Java-only constructs, or ones ECMA-262 reads otherwise or refuses. */
    private static final Map<String, String> NOT_ECMA = Map.ofEntries(
            Map.entry("\\p{", "Unicode or POSIX class (Java)"),
            Map.entry("\\P{", "Unicode or POSIX class (Java)"),
            Map.entry("\\A", "input start (Java)"),
            Map.entry("\\z", "input end (Java)"),
            Map.entry("\\Z", "input end (Java)"),
            Map.entry("\\G", "previous match end (Java)"),
            Map.entry("\\h", "horizontal space (Java)"),
            Map.entry("\\R", "line break (Java)"),
            Map.entry("\\Q", "quotation (Java)"),
            Map.entry("\\E", "quotation (Java)"),
            Map.entry("*+", "possessive quantifier (Java)"),
            Map.entry("++", "possessive quantifier (Java)"),
            Map.entry("?+", "possessive quantifier (Java)"),
            Map.entry("}+", "possessive quantifier (Java)"),
            Map.entry("(?>", "atomic group (Java)"),
            Map.entry("(?<", "named group or look-behind (ECMA 2018 only)"),
            Map.entry("(?i", "inline flag (Java)"),
            Map.entry("(?s", "inline flag (Java)"),
            Map.entry("(?m", "inline flag (Java)"),
            Map.entry("(?x", "inline flag (Java)"),
            Map.entry("(?u", "inline flag (Java)"),
            Map.entry("&&", "class intersection (Java)"));

    static Map<String, String> patterns(JsonNode document) {
        Map<String, String> found = new TreeMap<>();
        collect("", document, found);
        return found;
    }

    private static void collect(String where, JsonNode node, Map<String, String> into) {
        if (node.isObject()) {
            node.fields().forEachRemaining(field -> {
                String at = where + "/" + field.getKey();
                if (field.getKey().equals("pattern") && field.getValue().isTextual()) {
                    into.put(at, field.getValue().asText());
                } else {
                    collect(at, field.getValue(), into);
                }
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collect(where + "/" + i, node.get(i), into);
            }
        }
    }

    /** What is wrong with each pattern: not anchored, or a construct ECMA-262 does not read as Java does. */
    static List<String> problems(Map<String, String> patterns) {
        List<String> wrong = new ArrayList<>();
        patterns.forEach((where, pattern) -> {
            if (!pattern.startsWith("^") || !pattern.endsWith("$") || pattern.endsWith("\\$")) {
                wrong.add(where + ": " + pattern + " is not anchored ^…$");
            }
            NOT_ECMA.forEach((construct, what) -> {
                if (pattern.contains(construct)) {
                    wrong.add(where + ": " + pattern + " uses " + construct + ", " + what);
                }
            });
            try {
                Pattern.compile(pattern);
            } catch (PatternSyntaxException e) {
                wrong.add(where + ": " + pattern + " does not compile: " + e.getDescription());
            }
        });
        return wrong;
    }

    @Test
    void everyPatternIsAnchoredAndEcmaScript() throws IOException {
        JsonNode contract = YAML.readTree(Files.readString(OpenApiContractIT.CONTRACT, StandardCharsets.UTF_8));
        Map<String, String> patterns = patterns(contract);
        assertThat(patterns).as("the contract's patterns").hasSizeGreaterThan(10);
        assertThat(problems(patterns)).isEmpty();
    }

    @Test
    void theChecksFindAnUnanchoredOrJavaOnlyPattern() throws IOException {
        JsonNode bad = YAML.readTree("""
                a: {pattern: "[a-z]+"}
                b: {pattern: "^\\\\p{Cntrl}*$"}
                c: {items: {pattern: "^a*+$"}}
                d: {pattern: "^[a-z]+$", items: {pattern: "^(?:publish|draft)$"}}
                """);
        Map<String, String> patterns = patterns(bad);
        assertThat(patterns).containsOnlyKeys("/a/pattern", "/b/pattern", "/c/items/pattern", "/d/pattern",
                "/d/items/pattern");
        assertThat(problems(patterns)).hasSize(3)
                .anyMatch(p -> p.startsWith("/a/pattern") && p.contains("not anchored"))
                .anyMatch(p -> p.startsWith("/b/pattern") && p.contains("\\p{"))
                .anyMatch(p -> p.startsWith("/c/items/pattern") && p.contains("possessive"));
    }
}
