package io.herald.deploy.embedded;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Says at start-up, without a stack trace, that this build needs an external database. */
public class NoEmbeddedDatabaseFailureAnalyzer extends AbstractFailureAnalyzer<NoEmbeddedDatabaseException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, NoEmbeddedDatabaseException cause) {
        return new FailureAnalysis("Herald needs a PostgreSQL database: " + cause.getMessage() + ".",
                "Set spring.datasource.url, spring.datasource.username and spring.datasource.password"
                        + " (SPRING_DATASOURCE_URL, _USERNAME, _PASSWORD), herald.secrets.encryption-keys"
                        + " (HERALD_SECRETS_ENCRYPTIONKEYS) and herald.audit.signing-key (HERALD_AUDIT_SIGNINGKEY);"
                        + " or run a build with the embedded database"
                        + " (built without -Pproduction) on Linux amd64.", cause);
    }
}
