package io.herald.deploy.http;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Every {@code pattern} of the published document matches the whole value, as the server's
 * {@code @Pattern} does: Bean Validation matches a regular expression against the whole string,
 * while a JSON Schema pattern (ECMA-262) matches anywhere in it, so an unanchored {@code [a-z]+}
 * would let a client send what the server refuses. Each pattern becomes {@code ^(?:…)$} (or
 * {@code ^…$} where it has no top-level alternative), which means the same to both engines.
 */
final class AnchoredPatterns {

    private AnchoredPatterns() {
    }

    static void anchor(OpenAPI openApi) {
        Set<Schema<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        if (openApi.getComponents() != null) {
            if (openApi.getComponents().getSchemas() != null) {
                openApi.getComponents().getSchemas().values().forEach(schema -> walk(schema, seen));
            }
            if (openApi.getComponents().getParameters() != null) {
                openApi.getComponents().getParameters().values().forEach(parameter -> walk(parameter, seen));
            }
        }
        if (openApi.getPaths() == null) {
            return;
        }
        openApi.getPaths().values().forEach(item -> {
            if (item.getParameters() != null) {
                item.getParameters().forEach(parameter -> walk(parameter, seen));
            }
            item.readOperations().forEach(operation -> {
                if (operation.getParameters() != null) {
                    operation.getParameters().forEach(parameter -> walk(parameter, seen));
                }
                if (operation.getRequestBody() != null) {
                    walk(operation.getRequestBody().getContent(), seen);
                }
                if (operation.getResponses() != null) {
                    operation.getResponses().values().forEach(response -> walk(response.getContent(), seen));
                }
            });
        });
    }

    /** The pattern that matches a value exactly where {@code java.util.regex.Matcher#matches} does. */
    static String anchored(String pattern) {
        if (pattern.startsWith("^") && pattern.endsWith("$") && !pattern.endsWith("\\$")
                && !topLevelAlternative(pattern.substring(1, pattern.length() - 1))) {
            return pattern;
        }
        return topLevelAlternative(pattern) ? "^(?:" + pattern + ")$" : "^" + pattern + "$";
    }

    /** Whether the pattern has a {@code |} outside every group and character class. */
    private static boolean topLevelAlternative(String pattern) {
        int depth = 0;
        boolean inClass = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\') {
                i++;
            } else if (inClass) {
                inClass = c != ']';
            } else if (c == '[') {
                inClass = true;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == '|' && depth == 0) {
                return true;
            }
        }
        return false;
    }

    private static void walk(Parameter parameter, Set<Schema<?>> seen) {
        walk(parameter.getSchema(), seen);
        walk(parameter.getContent(), seen);
    }

    private static void walk(Content content, Set<Schema<?>> seen) {
        if (content != null) {
            content.values().forEach(media -> walk(media.getSchema(), seen));
        }
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void walk(Schema schema, Set<Schema<?>> seen) {
        if (schema == null || !seen.add(schema)) {
            return;
        }
        if (schema.getPattern() != null) {
            schema.setPattern(anchored(schema.getPattern()));
        }
        if (schema.getProperties() != null) {
            ((java.util.Map<String, Schema>) schema.getProperties()).values().forEach(p -> walk(p, seen));
        }
        walk(schema.getItems(), seen);
        walk(schema.getNot(), seen);
        if (schema.getAdditionalProperties() instanceof Schema additional) {
            walk(additional, seen);
        }
        for (java.util.List<Schema> parts : new java.util.List[] {schema.getAllOf(), schema.getAnyOf(),
                schema.getOneOf()}) {
            if (parts != null) {
                parts.forEach(part -> walk(part, seen));
            }
        }
    }
}
