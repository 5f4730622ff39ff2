package io.herald.query.audit;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code herald.audit.*}: limits of audit exports and verifications.
 *
 * @param statementTimeout   the longest one page query of an export or verification may run
 * @param maxConcurrentScans such scans per workspace at once on each node
 * @param verifyWait         how long a verify call waits for the live verifier to reach the events
 *                           stored when the call came, before answering with what is verified
 * @param chainEnabled       whether this node follows the store with the audit chain (on unless set);
 *                           off, the chain stays where it is and catches up, in order, when a node
 *                           runs it again. For measuring the chain's cost (the benchmark), not for
 *                           production, where an export's lines are only chained once it has run
 * @param chainCheckWindow   chain rows the live chain check reads per run from the chain's end,
 *                           and as many again of the older rows in turn ({@link ChainWatch})
 */
@ConfigurationProperties("herald.audit")
@Validated
public record AuditProperties(
        @DefaultValue("30s") @NotNull Duration statementTimeout,
        @DefaultValue("2") @Positive int maxConcurrentScans,
        @DefaultValue("2s") @NotNull Duration verifyWait,
        @DefaultValue("true") boolean chainEnabled,
        @DefaultValue("5000") @Positive int chainCheckWindow) {
}
