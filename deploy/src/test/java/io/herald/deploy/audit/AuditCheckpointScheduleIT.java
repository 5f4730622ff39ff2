package io.herald.deploy.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.herald.deploy.HeraldIntegrationTest;
import io.herald.query.audit.AuditKeys;
import io.herald.query.audit.ExportVerifier;
import io.herald.testsupport.TestDatabase;
import java.io.BufferedReader;
import java.io.StringReader;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * The recurring task signs the chains that grew on its own: with a checkpoint every second, a
 * workspace's new events get a checkpoint of their chain's head without anyone asking, and its
 * export then verifies with no line left unsigned. Its own application and database, so the
 * checkpoints it signs every second never appear in another test's counts.
 */
@TestPropertySource(properties = {
        // an application of its own beside the shared one: its own port, and its sandbox on it
        "herald.test.sandbox-loopback=false",
        "herald.audit.checkpoint-interval=1s"
})
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
@Tag("own-jvm")
class AuditCheckpointScheduleIT extends HeraldIntegrationTest {

    private static final TestDatabase OWN = TestDatabase.shared().freshSibling();

    @DynamicPropertySource
    static void ownDatabase(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", OWN::jdbcUrl);
    }

    @Autowired
    AuditKeys keys;

    @Test
    void theRecurringTaskSignsTheHeadOfAChainThatGrew() throws Exception {
        String ws = newWorkspace("scheduled-checkpoint");
        facebookChannel(ws, "fb-main", "EAAB-token-scheduled");
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                PublicationScenarios.scheduledRequest("entry-1", 1, "fb-main", "Scheduled checkpoint"));
        assertThat(created.status()).as(created.toString()).isEqualTo(202);

        // nothing here calls checkpoint(): the task signs the head once the chain has every event
        eventually("a checkpoint of the chain's head of workspace " + ws, () -> Boolean.TRUE.equals(
                jdbc.queryForObject("""
                        SELECT EXISTS (SELECT 1 FROM audit_checkpoint k JOIN audit_chain_head h
                                       ON h.workspace_id = k.workspace_id AND k.chain_order = h.chain_order
                                       WHERE k.workspace_id = ? AND h.events = (SELECT count(*)
                                       FROM domain_event_entry e WHERE e.workspace_id = k.workspace_id))""",
                        Boolean.class, ws)));

        assertThat(jdbc.queryForObject("SELECT key_id FROM audit_checkpoint WHERE workspace_id = ? LIMIT 1",
                String.class, ws)).isEqualTo(keys.signer().orElseThrow().keyId());
        long events = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE workspace_id = ?",
                Long.class, ws);
        Response export = send("GET", "/api/v1/workspaces/" + ws + "/audit/events", null, null);
        assertThat(export.status()).as(export.toString()).isEqualTo(200);
        ExportVerifier.Result result = new ExportVerifier(Map.of(keys.signer().orElseThrow().keyId(),
                keys.signer().orElseThrow().publicKey()), false).verify(new BufferedReader(new StringReader(export.body())));
        assertThat(result.verified()).as(result.problem()).isTrue();
        assertThat(result.events()).isEqualTo(events);
        assertThat(result.checkpoints()).isOne();
    }
}
