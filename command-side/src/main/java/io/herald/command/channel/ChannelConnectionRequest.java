package io.herald.command.channel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.contracts.error.FieldViolation;
import io.herald.contracts.error.HeraldRejection;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Body of {@code PUT …/channels/{channelId}}: the channel {@code type}, the fields every connection
 * has, and the channel type's own fields, which its plug-in reads ({@code ChannelPlugin#connect}).
 *
 * @param channelFields      the request's other fields, for the plug-in of {@code type}
 * @param verifyAfterSuccess null: the connection keeps what it had, a new one gets {@code herald.verification.enabled}
 */
public record ChannelConnectionRequest(String type, Boolean autoReattemptAfterNotFound, Instant accessTokenExpiresAt,
                                       ObjectNode channelFields, Boolean verifyAfterSuccess) {

    public ChannelConnectionRequest(String type, Boolean autoReattemptAfterNotFound, Instant accessTokenExpiresAt,
                                    ObjectNode channelFields) {
        this(type, autoReattemptAfterNotFound, accessTokenExpiresAt, channelFields, null);
    }

    static final String TYPE = "type";
    static final String AUTO_REATTEMPT = "autoReattemptAfterNotFound";
    static final String TOKEN_EXPIRES_AT = "accessTokenExpiresAt";
    static final String VERIFY = "verifyAfterSuccess";

    /**
     * Splits a request body into the common fields and the channel type's own.
     *
     * @throws HeraldRejection {@code validation_failed} naming a common field that is missing or of the wrong type
     */
    public static ChannelConnectionRequest of(ObjectNode body) {
        ObjectNode fields = body.deepCopy();
        List<FieldViolation> violations = new ArrayList<>();
        JsonNode type = fields.remove(TYPE);
        if (type == null || type.isNull()) {
            violations.add(new FieldViolation(TYPE, "must not be null"));
        } else if (!type.isTextual()) {
            violations.add(new FieldViolation(TYPE, "must be a channel type name"));
        }
        JsonNode auto = fields.remove(AUTO_REATTEMPT);
        if (auto != null && !auto.isNull() && !auto.isBoolean()) {
            violations.add(new FieldViolation(AUTO_REATTEMPT, "must be true or false"));
        }
        JsonNode verify = fields.remove(VERIFY);
        if (verify != null && !verify.isNull() && !verify.isBoolean()) {
            violations.add(new FieldViolation(VERIFY, "must be true or false"));
        }
        JsonNode expires = fields.remove(TOKEN_EXPIRES_AT);
        Instant expiresAt = null;
        if (expires != null && !expires.isNull()) {
            try {
                expiresAt = Instant.parse(expires.asText());
            } catch (DateTimeParseException e) {
                violations.add(new FieldViolation(TOKEN_EXPIRES_AT, "must be an instant such as 2027-01-31T00:00:00Z"));
            }
        }
        if (!violations.isEmpty()) {
            throw HeraldRejection.invalid(violations);
        }
        return new ChannelConnectionRequest(type.asText(),
                auto == null || auto.isNull() ? null : auto.asBoolean(), expiresAt, fields,
                verify == null || verify.isNull() ? null : verify.asBoolean());
    }

    @Override
    public String toString() {
        return "ChannelConnectionRequest[type=" + type + ", fields redacted]";
    }
}
