package io.herald.deploy.docs;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Compares two parsed documents (YAML or JSON) as trees, so formatting and key order do not count. */
final class JsonTrees {

    private JsonTrees() {
    }

    /** Where two trees differ, as JSON pointers (object key order does not count, array order does). */
    static List<String> differences(String at, JsonNode a, JsonNode b) {
        List<String> found = new ArrayList<>();
        if (a.isObject() && b.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = a.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                String here = at + "/" + field.getKey();
                found.addAll(b.has(field.getKey()) ? differences(here, field.getValue(), b.get(field.getKey()))
                        : List.of(here + " only served"));
            }
            b.fieldNames().forEachRemaining(name -> {
                if (!a.has(name)) {
                    found.add(at + "/" + name + " only in the file");
                }
            });
        } else if (a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) {
                found.addAll(differences(at + "/" + i, a.get(i), b.get(i)));
            }
        } else if (a.isNumber() && b.isNumber() ? a.decimalValue().compareTo(b.decimalValue()) != 0
                : !a.equals(b)) {
            found.add(at + ": served " + a + ", file " + b);
        }
        return found.size() > 20 ? found.subList(0, 20) : found;
    }
}
