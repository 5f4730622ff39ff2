package io.herald.deploy.audit;

import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import io.herald.platform.data.DataDirectory;
import io.herald.query.audit.AuditChainProcessor;
import io.herald.query.audit.AuditChainRepository;
import io.herald.query.audit.AuditKeys;
import io.herald.query.audit.AuditSigner;
import io.herald.query.audit.ChainWatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.axonframework.config.ConfigurerModule;
import org.axonframework.messaging.StreamableMessageSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The audit chain's wiring: its processor has one segment, its checkpoints are signed every
 * {@code herald.audit.checkpoint-interval} on one node at a time, with the key configured outside
 * the database. The embedded run generates a key on first start and keeps it in its data folder,
 * as it does the credential key; a run on an external database must be given its key (start-up
 * fails without one), as it must its credential keys. The live verifier's check of the chain against the
 * store runs every {@code herald.audit.chain-check-interval}, on one node at a time.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(AuditSigningProperties.class)
public class AuditSigningConfiguration {

    static final String CHECKPOINT_TASK = "audit-checkpoint";
    static final String CHAIN_CHECK_TASK = "audit-chain-check";

    private static final Logger log = LoggerFactory.getLogger(AuditSigningConfiguration.class);
    private static final String KEY_FILE = "audit-signing.key";

    @Bean
    AuditKeys auditKeys(AuditSigningProperties properties, Environment environment) throws IOException {
        String configured = properties.signingKey();
        if ((configured == null || configured.isBlank()) && properties.signingKeyFile() != null) {
            configured = Files.readString(properties.signingKeyFile());
        }
        if ((configured == null || configured.isBlank()) && DataDirectory.embeddedDatabase(environment)) {
            Path keyFile = DataDirectory.resolve(environment).resolve(KEY_FILE);
            if (Files.exists(keyFile)) {
                DataDirectory.restrictExisting(keyFile);
            } else {
                DataDirectory.writeSecret(keyFile, AuditSigner.generate());
                log.info("generated the audit signing key in {}", keyFile);
            }
            configured = Files.readString(keyFile);
        }
        if (configured == null || configured.isBlank()) {
            // unsigned, an export proves nothing about its completeness: required, as the credential keys are
            throw new IllegalStateException("herald.audit.signing-key (or herald.audit.signing-key-file) is required"
                    + " when spring.datasource.url is set: the Ed25519 key that signs the audit checkpoints, the same"
                    + " on every node (PEM from `openssl genpkey -algorithm ed25519`, or base64 of 32 random bytes,"
                    + " e.g. `openssl rand -base64 32`)");
        }
        AuditSigner signer;
        try {
            signer = AuditSigner.parse(configured);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage());
        }
        log.info("audit checkpoints are signed with key {}", signer.keyId());
        return new AuditKeys(signer);
    }

    /**
     * One writer, one order; a first start reads the store from its first event as new events, not
     * as a replay (Axon's default first token is a replay token, which the chain's handler refuses).
     */
    @Bean
    ConfigurerModule auditChainSegments() {
        return configurer -> configurer.eventProcessing(processing -> processing
                .registerPooledStreamingEventProcessorConfiguration(AuditChainProcessor.PROCESSING_GROUP,
                        (config, builder) -> builder.initialSegmentCount(1)
                                .initialToken(StreamableMessageSource::createTailToken)));
    }

    @Bean
    RecurringTask<Void> auditCheckpoints(AuditSigningProperties properties, AuditKeys keys,
                                         AuditChainRepository chain, Clock clock) {
        return Tasks.recurring(CHECKPOINT_TASK, FixedDelay.of(properties.checkpointInterval()))
                .execute((instance, context) -> keys.signer().ifPresent(signer -> {
                    int signed = chain.checkpoint(signer, clock.instant());
                    if (signed > 0) {
                        log.debug("signed {} audit checkpoints", signed);
                    }
                }));
    }

    @Bean
    RecurringTask<Void> auditChainCheck(AuditSigningProperties properties, ChainWatch watch) {
        return Tasks.recurring(CHAIN_CHECK_TASK, FixedDelay.of(properties.chainCheckInterval()))
                .execute((instance, context) -> watch.check());
    }
}
