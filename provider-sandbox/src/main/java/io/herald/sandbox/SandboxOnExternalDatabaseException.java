package io.herald.sandbox;

/** The sandbox was switched on against an external database without saying that is meant. */
public class SandboxOnExternalDatabaseException extends IllegalStateException {

    static final String MESSAGE = "herald.sandbox.enabled=true with spring.datasource.url set: the sandbox would"
            + " register its demo workspace, demo key and demo channel connections in that database. Unset"
            + " spring.datasource.url to run the sandbox on the embedded database, or set "
            + SandboxChannelsEnvironment.ALLOW_EXTERNAL_DATABASE + "=true if that database is meant for it.";

    SandboxOnExternalDatabaseException() {
        super(MESSAGE);
    }
}
