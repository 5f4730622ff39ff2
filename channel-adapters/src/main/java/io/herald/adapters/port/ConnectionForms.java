package io.herald.adapters.port;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.fasterxml.jackson.module.paramnames.ParameterNamesModule;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What every plug-in does with a connection request: read the fields into its own request record,
 * strictly (a field of another channel type is named, never ignored), check that record's
 * constraints, and apply the rules of stored secrets. Written once so that a plug-in states only its
 * fields.
 */
public final class ConnectionForms {

    private static final ObjectMapper STRICT = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .addModule(new ParameterNamesModule())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();
    private static final ValidatorFactory VALIDATION = Validation.buildDefaultValidatorFactory();

    private ConnectionForms() {
    }

    /**
     * The request's fields as {@code form}, checked.
     *
     * @throws HeraldRejection {@code validation_failed} naming a field of another channel type, one
     *                         of the wrong JSON type, or one that breaks a constraint of {@code form}
     */
    public static <F> F read(ObjectNode fields, Class<F> form, ChannelType type) {
        F read;
        try {
            read = STRICT.treeToValue(withoutNulls(fields), form);
        } catch (UnrecognizedPropertyException e) {
            throw HeraldRejection.invalid(List.of(new FieldViolation(e.getPropertyName(),
                    "is not a field of a " + type.wireName() + " connection")));
        } catch (JsonMappingException e) {
            String field = e.getPath().stream().map(JsonMappingException.Reference::getFieldName)
                    .filter(name -> name != null).collect(Collectors.joining("."));
            throw HeraldRejection.invalid(List.of(new FieldViolation(field.isEmpty() ? "body" : field,
                    "has the wrong type")));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw HeraldRejection.invalid(List.of(new FieldViolation("body", "is not a valid connection")));
        }
        Validator validator = VALIDATION.getValidator();
        List<FieldViolation> violations = validator.validate(read).stream()
                .sorted(Comparator.comparing((ConstraintViolation<F> v) -> v.getPropertyPath().toString()))
                .map(v -> new FieldViolation(v.getPropertyPath().toString(), v.getMessage()))
                .toList();
        if (!violations.isEmpty()) {
            throw HeraldRejection.invalid(violations);
        }
        return read;
    }

    /**
     * A field sent as {@code null} says nothing: generated clients send every field of the request
     * model, most of them null, and a null field of another channel type is no mistake.
     */
    private static ObjectNode withoutNulls(ObjectNode fields) {
        ObjectNode copy = fields.deepCopy();
        List<String> nulls = new ArrayList<>();
        copy.fieldNames().forEachRemaining(name -> {
            if (copy.get(name).isNull()) {
                nulls.add(name);
            }
        });
        copy.remove(nulls);
        return copy;
    }

    /** Collects the required fields a request leaves out. */
    public static final class Required {

        private final List<FieldViolation> missing = new ArrayList<>();

        public Required field(String value, String name) {
            if (value == null || value.isBlank()) {
                missing.add(new FieldViolation(name, "is required for this channel type"));
            }
            return this;
        }

        /** @throws HeraldRejection {@code validation_failed} naming every missing field */
        public void check() {
            if (!missing.isEmpty()) {
                throw HeraldRejection.invalid(missing);
            }
        }
    }

    public static Required required() {
        return new Required();
    }

    /** Whether a request names another destination than the stored one; a field left out is no change. */
    public static boolean changed(String stored, String requested) {
        return requested != null && !requested.equals(stored);
    }

    /**
     * A stored secret never goes to a new destination: when {@code repointed}, the request must
     * carry {@code secretField} again.
     */
    public static void requireSecretAgain(boolean repointed, String secret, String secretField, String destination) {
        if (repointed && secret == null) {
            throw HeraldRejection.invalid(List.of(new FieldViolation(secretField,
                    "is required again when " + destination + " changes: a stored secret is never sent to a new "
                            + "destination")));
        }
    }

    public static <T> T firstNonNull(T a, T b) {
        return a != null ? a : b;
    }

    public static String stripTrailingSlash(String url) {
        return url != null && url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
