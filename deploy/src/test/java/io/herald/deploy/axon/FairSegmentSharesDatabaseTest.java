package io.herald.deploy.axon;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.testsupport.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.axonframework.eventhandling.tokenstore.jdbc.TokenSchema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/** The limit Axon is given, from the node rows and token rows in a real database. */
class FairSegmentSharesDatabaseTest {

    private static final String PROCESSOR = "publication-view";
    private static final Path NODE_TABLE =
            Path.of("src/main/resources/db/migration/deploy/V2026_11_30_01__cluster_nodes.sql");
    private static final String THIS_NODE = ManagementFactory.getRuntimeMXBean().getName();

    private final JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(
            TestDatabase.shared().freshSibling().jdbcUrl()));
    private final StaticListableBeanFactory beans = new StaticListableBeanFactory();

    @BeforeEach
    void schema() throws IOException {
        jdbc.execute(Files.readString(NODE_TABLE));
        jdbc.execute("""
                CREATE TABLE token_entry (processor_name VARCHAR(255) NOT NULL, segment INTEGER NOT NULL,
                    token BYTEA, token_type VARCHAR(255), "timestamp" VARCHAR(255), owner VARCHAR(255),
                    PRIMARY KEY (processor_name, segment))""");
        beans.addBean("tokenSchema", TokenSchema.builder().setTokenTable("token_entry")
                .setProcessorNameColumn("processor_name").setSegmentColumn("segment").setTokenColumn("token")
                .setTokenTypeColumn("token_type").setTimestampColumn("timestamp").setOwnerColumn("owner")
                .build());
    }

    @Test
    void aProcessorIsUnlimitedUntilItsSegmentsAreCountedThenSharedAmongTheLiveNodes() {
        FairSegmentShares shares = shares(true);
        assertThat(shares.getMaxSegments(PROCESSOR)).isEqualTo(Short.MAX_VALUE);

        jdbc.update("INSERT INTO token_entry (processor_name, segment) VALUES (?, 0), (?, 1)", PROCESSOR, PROCESSOR);
        shares.heartbeat();
        assertThat(shares.getMaxSegments(PROCESSOR)).as("alone").isEqualTo(2);

        jdbc.update("INSERT INTO herald_node (node_id, seen_at) VALUES ('other@host', now())");
        shares.heartbeat();
        assertThat(shares.getMaxSegments(PROCESSOR)).as("with a second live node").isEqualTo(1);

        jdbc.update("UPDATE herald_node SET seen_at = now() - interval '1 minute' WHERE node_id = 'other@host'");
        shares.heartbeat();
        assertThat(shares.getMaxSegments(PROCESSOR)).as("the other node stopped announcing itself").isEqualTo(2);
    }

    @Test
    void withBalancingOffANodeClaimsWhatItCanButStillAnnouncesItself() {
        FairSegmentShares shares = shares(false);
        jdbc.update("INSERT INTO token_entry (processor_name, segment) VALUES (?, 0), (?, 1)", PROCESSOR, PROCESSOR);
        jdbc.update("INSERT INTO herald_node (node_id, seen_at) VALUES ('other@host', now())");
        shares.heartbeat();

        assertThat(shares.getMaxSegments(PROCESSOR)).isEqualTo(Short.MAX_VALUE);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM herald_node WHERE node_id = ?", Integer.class,
                THIS_NODE)).isEqualTo(1);
    }

    @Test
    void aStoppedNodeRemovesItsRowSoTheOthersStopCountingItAtOnce() {
        FairSegmentShares shares = shares(true);
        shares.start();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM herald_node WHERE node_id = ?", Integer.class,
                THIS_NODE)).isEqualTo(1);

        shares.stop();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM herald_node", Integer.class)).isZero();
        assertThat(shares.isRunning()).isFalse();
    }

    private FairSegmentShares shares(boolean balanceEnabled) {
        return new FairSegmentShares(jdbc, new ClusterProperties(balanceEnabled, Duration.ofSeconds(2),
                Duration.ofSeconds(6)), beans.getBeanProvider(TokenSchema.class),
                beans.getBeanProvider(MeterRegistry.class));
    }
}
