package io.herald.sandbox;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Says at start-up, without a stack trace, why the sandbox refused the configured database. */
public class SandboxOnExternalDatabaseFailureAnalyzer extends AbstractFailureAnalyzer<SandboxOnExternalDatabaseException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SandboxOnExternalDatabaseException cause) {
        return new FailureAnalysis("The provider sandbox (herald.sandbox.enabled=true) refuses the external database"
                + " configured in spring.datasource.url: it would register its demo workspace, demo key and demo"
                + " channel connections there.",
                "Unset spring.datasource.url to run the sandbox on the embedded database, or set "
                        + SandboxChannelsEnvironment.ALLOW_EXTERNAL_DATABASE + "=true if that database is meant"
                        + " for the sandbox (a test or demo database).", cause);
    }
}
