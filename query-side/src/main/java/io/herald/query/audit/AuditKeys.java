package io.herald.query.audit;

import java.util.Optional;

/** The audit signing key of this node, if one is configured. */
public record AuditKeys(AuditSigner current) {

    public Optional<AuditSigner> signer() {
        return Optional.ofNullable(current);
    }
}
