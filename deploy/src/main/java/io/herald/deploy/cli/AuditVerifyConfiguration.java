package io.herald.deploy.cli;

import io.herald.deploy.embedded.EmbeddedPostgresConfiguration;
import io.herald.query.audit.AuditChainRepository;
import io.herald.query.audit.AuditVerifier;
import io.herald.query.audit.EventStoreReader;
import java.time.Clock;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.JdbcTemplateAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Just what the verifier needs: the database (the configured one, else the embedded one in the
 * data folder), the event store reader and the audit chain's tables. No web server, no Axon, no processors, dispatcher or
 * scheduler: an audit only reads, and must never publish or fire a deadline as a side effect.
 *
 * <p>Deliberately not a {@code @Configuration}: the server's component scan covers this package,
 * and the server must not pick these beans up.
 */
@ImportAutoConfiguration({DataSourceAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
        JacksonAutoConfiguration.class})
@Import({EmbeddedPostgresConfiguration.class, EventStoreReader.class, AuditChainRepository.class, AuditVerifier.class})
class AuditVerifyConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
