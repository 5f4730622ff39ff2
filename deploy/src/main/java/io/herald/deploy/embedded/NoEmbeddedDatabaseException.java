package io.herald.deploy.embedded;

/**
 * This build has no embedded PostgreSQL for this platform (a {@code -Pproduction} build has none
 * at all) and no external database is configured.
 */
public class NoEmbeddedDatabaseException extends IllegalStateException {

    NoEmbeddedDatabaseException(String platform) {
        super("this Herald build has no embedded PostgreSQL for " + platform
                + "; set spring.datasource.url (env SPRING_DATASOURCE_URL) to an external PostgreSQL");
    }
}
