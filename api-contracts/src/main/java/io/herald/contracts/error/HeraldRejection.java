package io.herald.contracts.error;

/**
 * A business refusal with a stable code, thrown by command handlers and mapped by the HTTP layer
 * to problem+json. The detail is shown to clients: it must never hold a secret.
 */
public class HeraldRejection extends RuntimeException {

    private final ErrorCode code;

    public HeraldRejection(ErrorCode code, String detail) {
        super(detail, null, false, false);
        this.code = code;
    }

    public ErrorCode code() {
        return code;
    }

    public String detail() {
        return getMessage();
    }
}
