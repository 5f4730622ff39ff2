package io.herald.adapters.port;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.type.LogicalType;
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

    /**
     * As strict as the API's own mapper: no field it does not know, and no number or boolean read
     * as text (or text as a number).
     */
    private static final ObjectMapper STRICT = strict();
    private static final ValidatorFactory VALIDATION = Validation.buildDefaultValidatorFactory();

    private ConnectionForms() {
    }

    private static ObjectMapper strict() {
        JsonMapper mapper = JsonMapper.builder()
                .addModule(new JavaTimeModule())
                .addModule(new ParameterNamesModule())
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .build();
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        return mapper;
    }

    /**
     * The request's fields as {@code form}, checked.
     *
     * @throws HeraldRejection {@code validation_failed} naming a field of another channel type (one that
     *                         is null or an empty list is left out: it carries nothing), one
     *                         of the wrong JSON type, or one that breaks a constraint of {@code form}
     */
    public static <F> F read(ObjectNode fields, Class<F> form, ChannelType type) {
        F read;
        // a null or empty list says nothing, whoever's field it is: generated clients send every field they model
        ObjectNode given = fields.deepCopy();
        given.properties().removeIf(field -> field.getValue().isNull()
                || (field.getValue().isArray() && field.getValue().isEmpty()));
        try {
            read = STRICT.treeToValue(given, form);
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

    /**
     * The text fields of {@code form} (a record: a plug-in's {@link ChannelPlugin#connectionForm()}
     * or an {@link OAuthFlow#startForm()}), in their declared order, as its {@link FormField}s say;
     * a field is secret when {@code secrets} (null: none) has a component of its name. A field
     * without {@link FormField} is labelled by its name, and one that is not text (a list) is left
     * out: a form asks for text.
     */
    public static List<ConnectField> fields(Class<?> form, Class<?> secrets) {
        if (form == null || !form.isRecord()) {
            return List.of();
        }
        java.util.Set<String> secret = new java.util.HashSet<>();
        if (secrets != null && secrets.isRecord()) {
            for (java.lang.reflect.RecordComponent component : secrets.getRecordComponents()) {
                secret.add(component.getName());
            }
        }
        List<ConnectField> fields = new ArrayList<>();
        for (java.lang.reflect.RecordComponent component : form.getRecordComponents()) {
            if (component.getType() != String.class) {
                continue;
            }
            FormField declared = component.getAnnotation(FormField.class);
            String name = component.getName();
            fields.add(new ConnectField(name, declared == null ? name : declared.label(), secret.contains(name),
                    declared != null && declared.required(),
                    declared == null || declared.placeholder().isEmpty() ? null : declared.placeholder()));
        }
        return List.copyOf(fields);
    }

    public static String stripTrailingSlash(String url) {
        return url != null && url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
