package io.herald.contracts.error;

import java.util.List;

/**
 * A business refusal with a stable code, thrown by command handlers and mapped by the HTTP layer
 * to problem+json. The detail is shown to clients: it must never hold a secret.
 */
public class HeraldRejection extends RuntimeException {

    private final ErrorCode code;
    private final List<FieldViolation> violations;

    public HeraldRejection(ErrorCode code, String detail) {
        this(code, detail, List.of());
    }

    public HeraldRejection(ErrorCode code, String detail, List<FieldViolation> violations) {
        super(detail, null, false, false);
        this.code = code;
        this.violations = List.copyOf(violations);
    }

    public static HeraldRejection invalid(List<FieldViolation> violations) {
        return new HeraldRejection(ErrorCode.VALIDATION_FAILED, "the request has invalid fields", violations);
    }

    public ErrorCode code() {
        return code;
    }

    public String detail() {
        return getMessage();
    }

    /** Field-level problems, for {@link ErrorCode#VALIDATION_FAILED}; empty otherwise. */
    public List<FieldViolation> violations() {
        return violations;
    }
}
