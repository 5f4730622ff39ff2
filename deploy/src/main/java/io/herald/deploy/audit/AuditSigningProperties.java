package io.herald.deploy.audit;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code herald.audit.*}: the key that signs the audit chain's checkpoints, kept outside the
 * database like the credential keys, so that whoever can rewrite tables cannot sign a rewritten
 * chain. {@code signing-key} (env {@code HERALD_AUDIT_SIGNINGKEY}) is the key itself, {@code
 * signing-key-file} a file holding it: a PEM Ed25519 private key ({@code openssl genpkey
 * -algorithm ed25519}) or the base64 of 32 random bytes. {@code checkpoint-interval}: how often the
 * grown chains are signed. {@code chain-check-interval}: how often the live verifier checks the
 * newest chain segment and checkpoints against the store.
 */
@ConfigurationProperties("herald.audit")
public record AuditSigningProperties(String signingKey, Path signingKeyFile,
                                     @DefaultValue("1m") Duration checkpointInterval,
                                     @DefaultValue("1m") Duration chainCheckInterval) {

    /** Never the key itself: a properties bean may be printed. */
    @Override
    public String toString() {
        return "AuditSigningProperties[signingKey=" + (signingKey == null || signingKey.isBlank() ? "unset" : "set")
                + ", signingKeyFile=" + signingKeyFile + ", checkpointInterval=" + checkpointInterval
                + ", chainCheckInterval=" + chainCheckInterval + "]";
    }
}
