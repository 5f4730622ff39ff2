package io.herald.deploy.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.contracts.error.ErrorCode;
import io.herald.platform.problem.Problems;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The documentation's tables against the code: every {@code herald.*} key in the configuration
 * metadata the build generates from the properties records is in the configuration table of
 * {@code docs/operations.md} and the table names no other, and the problem types table of
 * {@code docs/api.md} lists every error code with its status.
 */
class DocsTablesTest {

    private static final Path API = Path.of("..", "docs", "api.md");
    private static final Path OPERATIONS = Path.of("..", "docs", "operations.md");
    private static final Pattern TICKED = Pattern.compile("`([^`]+)`");
    private static final Pattern KEY = Pattern.compile("[a-z0-9.{},…*-]+");

    @Test
    void theConfigurationTableNamesExactlyTheKeysOfThePropertiesRecords() throws IOException {
        Set<String> documented = documentedKeys();
        Set<String> metadata = metadataKeys();
        Set<String> undocumented = new TreeSet<>(metadata);
        undocumented.removeAll(documented);
        Set<String> unknown = new TreeSet<>(documented);
        unknown.removeAll(metadata);
        assertThat(undocumented).as("keys of the properties records missing from the table in docs/operations.md").isEmpty();
        assertThat(unknown).as("keys in the table in docs/operations.md that no properties record has").isEmpty();
    }

    @Test
    void theProblemTypesTableListsEveryCodeWithItsStatus() throws IOException {
        Set<String> rows = new TreeSet<>();
        for (String line : section(API, "## Problem types")) {
            Matcher type = Pattern.compile("^\\| `(" + Pattern.quote(Problems.TYPE_PREFIX) + "[a-z_]+)` \\| (\\d+) \\|")
                    .matcher(line);
            if (type.find()) {
                rows.add(type.group(1) + " " + type.group(2));
            }
        }
        Set<String> codes = Arrays.stream(ErrorCode.values())
                .map(code -> Problems.type(code) + " " + code.httpStatus())
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(rows).isEqualTo(codes);
    }

    private static Set<String> metadataKeys() throws IOException {
        Set<String> keys = new TreeSet<>();
        ObjectMapper json = new ObjectMapper();
        Enumeration<URL> files = DocsTablesTest.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json");
        while (files.hasMoreElements()) {
            try (InputStream in = files.nextElement().openStream()) {
                for (JsonNode property : json.readTree(in).path("properties")) {
                    String name = property.path("name").asText();
                    if (name.startsWith("herald.")) {
                        keys.add(name);
                    }
                }
            }
        }
        assertThat(keys).as("the build generates configuration metadata").contains("herald.cluster.node-timeout");
        return keys;
    }

    /**
     * The keys of the table's first column. A cell may abbreviate: {@code {a,b}} stands for each,
     * {@code …last} replaces the last part of the key before it, and a bare {@code name} is a
     * sibling of the keys before it.
     */
    private static Set<String> documentedKeys() throws IOException {
        Set<String> keys = new TreeSet<>();
        for (String line : section(OPERATIONS, "## Configuration")) {
            if (!line.startsWith("| `")) {
                continue;
            }
            String cell = line.substring(1, line.indexOf('|', 1));
            List<String> previous = List.of();
            Matcher ticked = TICKED.matcher(cell);
            while (ticked.find()) {
                String token = ticked.group(1);
                if (!KEY.matcher(token).matches()) {
                    continue;
                }
                List<String> expanded = new ArrayList<>();
                for (String key : expand(token)) {
                    if (key.startsWith("herald.")) {
                        expanded.add(key);
                    } else if (!previous.isEmpty()) {
                        String sibling = key.startsWith("…") ? key.substring(1) : key;
                        previous.forEach(p -> expanded.add(p.substring(0, p.lastIndexOf('.') + 1) + sibling));
                    }
                }
                if (!expanded.isEmpty()) {
                    keys.addAll(expanded);
                    previous = expanded;
                }
            }
        }
        return keys;
    }

    private static List<String> expand(String token) {
        int open = token.indexOf('{');
        if (open < 0) {
            return List.of(token);
        }
        int close = token.indexOf('}', open);
        List<String> out = new ArrayList<>();
        for (String choice : token.substring(open + 1, close).split(",")) {
            out.addAll(expand(token.substring(0, open) + choice + token.substring(close + 1)));
        }
        return out;
    }

    private static List<String> section(Path file, String heading) throws IOException {
        List<String> lines = Files.readAllLines(file);
        int start = lines.indexOf(heading);
        assertThat(start).as("section %s of %s", heading, file).isNotNegative();
        List<String> out = new ArrayList<>();
        for (int i = start + 1; i < lines.size() && !lines.get(i).startsWith("## "); i++) {
            out.add(lines.get(i));
        }
        return out;
    }
}
