package io.herald.deploy.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.herald.contracts.publication.ReconciliationResult;
import io.herald.deploy.HeraldIntegrationTest;
import io.herald.deploy.cli.AuditCommandLine;
import io.herald.query.audit.AuditChainRepository;
import io.herald.query.audit.AuditKeys;
import io.herald.query.audit.ChainWatch;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The hash-chained export and the point-in-time view on the real application and store: an
 * export verifies with the published key, and the same file with a line removed, a field changed
 * or two lines swapped is refused naming the line, by the command line and by the Python check
 * printed in docs/audit.md alike; a publication read as of each of its events'
 * times is the view the projection held then.
 */
class AuditChainIT extends HeraldIntegrationTest {

    @Autowired
    CommandGateway commands;

    @Autowired
    AuditChainRepository chain;

    @Autowired
    AuditKeys keys;

    @Autowired
    ChainWatch watch;

    @TempDir
    Path files;

    private String request(String ws, String entry) {
        Response created = send("POST", "/api/v1/workspaces/" + ws + "/publications",
                PublicationScenarios.scheduledRequest(entry, 1, "fb-main", "Chain " + entry));
        assertThat(created.status()).as(created.toString()).isEqualTo(202);
        return created.json().get("publicationId").asText();
    }

    /** The workspace's export after its chain reached its last event and a checkpoint was signed. */
    private List<String> signedExport(String ws) {
        String path = "/api/v1/workspaces/" + ws + "/audit/events";
        long events = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE workspace_id = ?", Long.class, ws);
        awaitJson("/api/v1/admin/audit/chain", progress -> jdbc.queryForObject(
                "SELECT count(*) FROM audit_chain WHERE workspace_id = ?", Long.class, ws) == events);
        chain.checkpoint(keys.signer().orElseThrow(), Instant.now());
        Response export = send("GET", path, null, null);
        assertThat(export.status()).as(export.toString()).isEqualTo(200);
        return new ArrayList<>(Arrays.asList(export.body().split("\n")));
    }

    /**
     * The workspace's export right after its chain reached its last event, with no checkpoint
     * signed since (the recurring task runs hourly in the tests): the export signs its own.
     */
    private List<String> freshExport(String ws) {
        awaitChained(ws);
        assertThat(jdbc.queryForObject("""
                SELECT count(*) FROM audit_checkpoint k JOIN audit_chain_head h ON h.workspace_id = k.workspace_id
                WHERE k.workspace_id = ? AND k.chain_order >= h.chain_order""", Long.class, ws))
                .as("no checkpoint covers the chain's head before the export").isZero();
        Response export = send("GET", "/api/v1/workspaces/" + ws + "/audit/events", null, null);
        assertThat(export.status()).as(export.toString()).isEqualTo(200);
        return new ArrayList<>(Arrays.asList(export.body().split("\n")));
    }

    private void awaitChained(String ws) {
        long events = jdbc.queryForObject("SELECT count(*) FROM domain_event_entry WHERE workspace_id = ?", Long.class, ws);
        awaitJson("/api/v1/admin/audit/chain", progress -> jdbc.queryForObject(
                "SELECT count(*) FROM audit_chain WHERE workspace_id = ?", Long.class, ws) == events);
    }

    private record Run(int exitCode, String output) {
    }

    private Run verify(List<String> lines, String... options) throws IOException {
        Path export = Files.write(files.resolve("export-" + System.nanoTime() + ".ndjson"), lines, StandardCharsets.UTF_8);
        Response keyDocument = sendAs(null, "GET", "/api/v1/audit/keys", null, null, java.util.Map.of());
        assertThat(keyDocument.status()).as("the keys are public").isEqualTo(200);
        Path keyFile = Files.writeString(files.resolve("keys.json"), keyDocument.body());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of("audit", "verify-export", export.toString(), "--public-key",
                keyFile.toString()));
        args.addAll(List.of(options));
        int exit = AuditCommandLine.run(args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        return new Run(exit, out.toString(StandardCharsets.UTF_8));
    }

    private static String guideBlock(String language, String containing) throws IOException {
        java.util.regex.Matcher block = java.util.regex.Pattern.compile("```" + language + "\n(.*?)```",
                java.util.regex.Pattern.DOTALL).matcher(Files.readString(Path.of("..", "docs", "audit.md")));
        while (block.find()) {
            if (block.group(1).contains(containing)) {
                return block.group(1);
            }
        }
        throw new AssertionError("the audit guide shows no " + language + " block with " + containing);
    }

    private static Run run(Path dir, String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        return new Run(process.exitValue(), output.strip());
    }

    /**
     * The guide's signature check (Python, then openssl on each checkpoint) as printed, on these
     * lines and the published keys; null when openssl is not on the PATH.
     */
    private Run opensslCheck(List<String> lines) throws IOException, InterruptedException {
        boolean openssl = java.util.stream.Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, "openssl")));
        if (!openssl) {
            return null;
        }
        Path dir = Files.createDirectories(files.resolve("openssl-" + System.nanoTime()));
        Files.writeString(dir.resolve("check_export.py"), guideBlock("python", "import"));
        Files.write(dir.resolve("acme.ndjson"), lines, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("herald-keys.json"),
                sendAs(null, "GET", "/api/v1/audit/keys", null, null, java.util.Map.of()).body());
        Files.writeString(dir.resolve("check.sh"), guideBlock("sh", "openssl pkeyutl"));
        return run(dir, "bash", "-e", "check.sh");
    }

    /** The Python check of docs/audit.md, run as the guide says on these lines. */
    private Run pythonCheck(List<String> lines) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(files.resolve("python-" + System.nanoTime()));
        Files.writeString(dir.resolve("check_export.py"), guideBlock("python", "import"));
        Files.write(dir.resolve("export.ndjson"), lines, StandardCharsets.UTF_8);
        return run(dir, "python3", "check_export.py", "export.ndjson");
    }

    @Test
    void anExportVerifiesAndALineRemovedChangedOrSwappedIsRefusedByNumber() throws Exception {
        String ws = newWorkspace("chain");
        facebookChannel(ws, "fb-main", "EAAB-token-chain");
        String id = request(ws, "entry-1");
        PublicationScenarios drive = new PublicationScenarios(commands);
        drive.succeed(id, drive.startAttempt(id));
        // taken right after the events, before any periodic checkpoint: it ends with one of its own
        List<String> lines = freshExport(ws);

        assertThat(lines).hasSizeGreaterThanOrEqualTo(5);
        JsonNode first = json.readTree(lines.get(0));
        assertThat(first.get("prevHash").asText()).isEqualTo("0".repeat(64));
        assertThat(first.get("workspaceId").asText()).isEqualTo(ws);
        for (int i = 1; i < lines.size() - 1; i++) {
            assertThat(json.readTree(lines.get(i)).get("prevHash").asText())
                    .isEqualTo(json.readTree(lines.get(i - 1)).get("hash").asText());
        }
        JsonNode checkpoint = json.readTree(lines.get(lines.size() - 1)).get("checkpoint");
        assertThat(checkpoint.get("hash").asText()).isEqualTo(json.readTree(lines.get(lines.size() - 2)).get("hash").asText());
        assertThat(checkpoint.get("keyId").asText()).isEqualTo(keys.signer().orElseThrow().keyId());
        // stored as the periodic ones are, and the one the next export ends with
        assertThat(jdbc.queryForObject("""
                SELECT count(*) FROM audit_checkpoint k JOIN audit_chain_head h ON h.workspace_id = k.workspace_id
                WHERE k.workspace_id = ? AND k.chain_order = h.chain_order AND k.global_index = ? AND k.hash = ?
                AND k.signed_at = ? AND k.signature = ?""", Long.class, ws, checkpoint.get("position").asLong(),
                checkpoint.get("hash").asText(), checkpoint.get("at").asText(), checkpoint.get("signature").asText()))
                .isOne();
        Response again = send("GET", "/api/v1/workspaces/" + ws + "/audit/events", null, null);
        assertThat(again.body().split("\n")).containsExactlyElementsOf(lines);

        Run clean = verify(lines);
        assertThat(clean.exitCode()).as(clean.output()).isZero();
        // kept in the build folder, to run the check of docs/audit.md (Python and openssl) on a real export
        Files.write(Path.of("target", "audit-export-example.ndjson"), lines, StandardCharsets.UTF_8);
        Files.copy(files.resolve("keys.json"), Path.of("target", "audit-keys-example.json"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThat(clean.output()).contains("verified: " + (lines.size() - 1) + " events");

        List<String> removed = new ArrayList<>(lines);
        removed.remove(2);
        Run afterRemoval = verify(removed);
        assertThat(afterRemoval.exitCode()).isEqualTo(1);
        assertThat(afterRemoval.output()).startsWith("line 3:").contains("prevHash");

        List<String> changed = new ArrayList<>(lines);
        ObjectNode edited = (ObjectNode) json.readTree(changed.get(3));
        ((ObjectNode) edited.get("payload")).put("workspaceId", "someone-else");
        changed.set(3, json.writeValueAsString(edited));
        Run afterEdit = verify(changed);
        assertThat(afterEdit.exitCode()).isEqualTo(1);
        assertThat(afterEdit.output()).startsWith("line 4:").contains("changed");

        List<String> swapped = new ArrayList<>(lines);
        swapped.set(1, lines.get(2));
        swapped.set(2, lines.get(1));
        Run afterSwap = verify(swapped);
        assertThat(afterSwap.exitCode()).isEqualTo(1);
        assertThat(afterSwap.output()).startsWith("line 2:");

        // a line changed and every hash after it computed again: the chain holds, its signed head does not
        List<String> rechained = new ArrayList<>(changed);
        String prev = json.readTree(rechained.get(2)).get("hash").asText();
        for (int i = 3; i < rechained.size() - 1; i++) {
            ObjectNode line = (ObjectNode) json.readTree(rechained.get(i));
            line.put("prevHash", prev);
            prev = io.herald.query.audit.AuditChain.hash(prev, line);
            line.put("hash", prev);
            rechained.set(i, json.writeValueAsString(line));
        }
        Run afterRechaining = verify(rechained);
        assertThat(afterRechaining.exitCode()).isEqualTo(1);
        assertThat(afterRechaining.output()).startsWith("line " + lines.size() + ":");

        // the guide's Python check of the same files names the same lines
        Run pythonClean = pythonCheck(lines);
        assertThat(pythonClean.exitCode()).as(pythonClean.output()).isZero();
        assertThat(pythonClean.output()).contains("chain and hashes hold");
        assertThat(pythonCheck(removed).output()).startsWith("line 3:");
        assertThat(pythonCheck(changed).output()).startsWith("line 4:");
        assertThat(pythonCheck(swapped).output()).startsWith("line 2:");
        Run pythonRechained = pythonCheck(rechained);
        assertThat(pythonRechained.exitCode()).isEqualTo(1);
        assertThat(pythonRechained.output()).startsWith("line " + lines.size() + ":");
        Run pythonUnsigned = pythonCheck(lines.subList(0, lines.size() - 1));
        assertThat(pythonUnsigned.exitCode()).as(pythonUnsigned.output()).isEqualTo(1);
        assertThat(pythonUnsigned.output()).contains("no checkpoint");

        // and the guide's openssl step checks the checkpoints' signatures (openssl is on the PATH in CI)
        Run signatures = opensslCheck(lines);
        if (signatures != null) {
            assertThat(signatures.exitCode()).as(signatures.output()).isZero();
            assertThat(signatures.output()).contains("chain and hashes hold", "Signature Verified Successfully");
            List<String> resigned = new ArrayList<>(lines);
            resigned.set(lines.size() - 1, lines.get(lines.size() - 1).replaceFirst("\"at\":\"2", "\"at\":\"1"));
            Run forged = opensslCheck(resigned);
            assertThat(forged.exitCode()).as(forged.output()).isNotZero();
            assertThat(forged.output()).contains("chain and hashes hold", "Signature Verification Failure");
        }

        List<String> lastRemoved = new ArrayList<>(lines);
        lastRemoved.remove(lines.size() - 2);
        Run afterTruncation = verify(lastRemoved);
        assertThat(afterTruncation.exitCode()).isEqualTo(1);
        assertThat(afterTruncation.output()).startsWith("line " + (lines.size() - 1) + ":");
    }

    @Test
    void exportsAndTheRecurringTaskRacingStoreOneCheckpointOfAChainsHeadAndAllEndWithIt() throws Exception {
        String ws = newWorkspace("race");
        facebookChannel(ws, "fb-main", "EAAB-token-race");
        request(ws, "entry-1");
        awaitChained(ws);
        String path = "/api/v1/workspaces/" + ws + "/audit/events";
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(3);
        try {
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<String>> exports = new ArrayList<>();
            // two exports of the workspace at once (herald.audit.max-concurrent-scans) and the task
            for (int i = 0; i < 2; i++) {
                exports.add(pool.submit(() -> {
                    start.await();
                    Response export = send("GET", path, null, null);
                    assertThat(export.status()).as(export.toString()).isEqualTo(200);
                    return export.body();
                }));
            }
            java.util.concurrent.Future<Integer> task = pool.submit(() -> {
                start.await();
                return chain.checkpoint(keys.signer().orElseThrow(), Instant.now());
            });
            start.countDown();
            task.get(1, java.util.concurrent.TimeUnit.MINUTES);
            List<String> bodies = new ArrayList<>();
            for (java.util.concurrent.Future<String> export : exports) {
                bodies.add(export.get(1, java.util.concurrent.TimeUnit.MINUTES));
            }
            assertThat(jdbc.queryForObject("""
                    SELECT count(*) FROM audit_checkpoint k JOIN audit_chain_head h ON h.workspace_id = k.workspace_id
                    WHERE k.workspace_id = ? AND k.chain_order = h.chain_order""", Long.class, ws))
                    .as("one checkpoint of the head").isOne();
            assertThat(jdbc.queryForObject("SELECT count(*) FROM audit_checkpoint WHERE workspace_id = ?", Long.class,
                    ws)).isOne();
            String stored = jdbc.queryForObject("SELECT signature FROM audit_checkpoint WHERE workspace_id = ?",
                    String.class, ws);
            assertThat(bodies).allSatisfy(body -> {
                String[] lines = body.split("\n");
                assertThat(lines[lines.length - 1]).contains("\"signature\":\"" + stored + "\"");
                assertThat(body).isEqualTo(bodies.get(0));
            });
            Run verified = verify(Arrays.asList(bodies.get(0).split("\n")));
            assertThat(verified.exitCode()).as(verified.output()).isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    private static boolean ofWorkspaces(JsonNode line, List<String> workspaces) {
        JsonNode checkpoint = line.get("checkpoint");
        return workspaces.contains((checkpoint == null ? line : checkpoint).get("workspaceId").asText());
    }

    @Test
    void aWholeStoreExportWithOneWorkspacesCheckpointRemovedIsRefusedNamingItsChain() throws Exception {
        String a = newWorkspace("whole-a");
        String b = newWorkspace("whole-b");
        facebookChannel(a, "fb-main", "EAAB-token-whole-a");
        facebookChannel(b, "fb-main", "EAAB-token-whole-b");
        request(a, "entry-1");
        request(b, "entry-1");
        signedExport(a);
        signedExport(b);
        long before = jdbc.queryForObject("SELECT min(global_index) - 1 FROM domain_event_entry"
                + " WHERE workspace_id IN (?, ?)", Long.class, a, b);
        Response export = send("GET", "/api/v1/audit/events?after=" + before, null, null);
        assertThat(export.status()).as(export.toString()).isEqualTo(200);
        // the two chains of the whole-store export (other tests' workspaces may have grown meanwhile)
        List<String> lines = new ArrayList<>();
        for (String line : export.body().split("\n")) {
            if (ofWorkspaces(json.readTree(line), List.of(a, b))) {
                lines.add(line);
            }
        }
        assertThat(lines.stream().filter(l -> l.startsWith("{\"checkpoint\"")).count()).isEqualTo(2);
        Run clean = verify(lines, "--partial");
        assertThat(clean.exitCode()).as(clean.output()).isZero();
        assertThat(pythonCheck(lines).exitCode()).isZero();

        List<String> withoutB = new ArrayList<>(lines);
        withoutB.removeIf(l -> l.startsWith("{\"checkpoint\"") && l.contains("\"workspaceId\":\"" + b + "\""));
        Run refused = verify(withoutB, "--partial");
        assertThat(refused.exitCode()).as(refused.output()).isEqualTo(1);
        assertThat(refused.output()).contains("refused", "workspace '" + b + "'", "no signed checkpoint")
                .doesNotContain("workspace '" + a + "'");
        Run python = pythonCheck(withoutB);
        assertThat(python.exitCode()).as(python.output()).isEqualTo(1);
        assertThat(python.output()).contains("not covered", "workspace '" + b + "'").doesNotContain(a);
        Run allowed = verify(withoutB, "--partial", "--allow-unsigned-tail");
        assertThat(allowed.exitCode()).as(allowed.output()).isZero();
        assertThat(allowed.output()).contains("note: the chain of workspace '" + b + "'");
    }

    @Test
    void anExportAfterAPositionStartsAtTheSignedCheckpointBeforeItAndRefusesItsFirstLinesRemoved() throws Exception {
        String ws = newWorkspace("partial");
        facebookChannel(ws, "fb-main", "EAAB-token-partial");
        String id = request(ws, "entry-1");
        signedExport(ws);
        long signedAt = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry WHERE workspace_id = ?",
                Long.class, ws);
        PublicationScenarios drive = new PublicationScenarios(commands);
        drive.succeed(id, drive.startAttempt(id));
        signedExport(ws);
        long after = jdbc.queryForObject("SELECT min(global_index) FROM domain_event_entry WHERE workspace_id = ?"
                + " AND global_index > ?", Long.class, ws, signedAt);

        Response export = send("GET", "/api/v1/workspaces/" + ws + "/audit/events?after=" + after, null, null);
        assertThat(export.status()).as(export.toString()).isEqualTo(200);
        List<String> lines = new ArrayList<>(Arrays.asList(export.body().split("\n")));
        JsonNode anchor = json.readTree(lines.get(0)).get("checkpoint");
        assertThat(anchor).as("the export begins with the signed head before its start").isNotNull();
        assertThat(anchor.get("position").asLong()).isEqualTo(signedAt);
        assertThat(json.readTree(lines.get(1)).get("position").asLong()).as("the line after the head").isGreaterThan(signedAt)
                .isLessThanOrEqualTo(after);
        assertThat(json.readTree(lines.get(1)).get("prevHash").asText()).isEqualTo(anchor.get("hash").asText());

        Run clean = verify(lines, "--partial");
        assertThat(clean.exitCode()).as(clean.output()).isZero();
        assertThat(verify(lines).output()).as("said to be partial only").startsWith("line 1:");

        List<String> firstLineRemoved = new ArrayList<>(lines);
        firstLineRemoved.remove(1);
        Run refused = verify(firstLineRemoved, "--partial");
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.output()).startsWith("line 2:").contains("prevHash");

        List<String> headRemovedToo = new ArrayList<>(lines.subList(2, lines.size()));
        Run unanchored = verify(headRemovedToo, "--partial");
        assertThat(unanchored.exitCode()).isEqualTo(1);
        assertThat(unanchored.output()).startsWith("line 1:").contains("workspace '" + ws + "'");
    }

    @Test
    void aChainBreakInTheStoreIsReportedByTheVerifier() throws Exception {
        String ws = newWorkspace("chain-break");
        facebookChannel(ws, "fb-main", "EAAB-token-break");
        String id = request(ws, "entry-1");
        signedExport(ws);
        // an operator with write access to the tables edits a stored event after it was chained
        jdbc.update("UPDATE domain_event_entry SET payload = convert_to(replace(convert_from(payload, 'UTF8'),"
                + " 'Chain entry-1', 'Rewritten'), 'UTF8') WHERE aggregate_identifier = ? AND sequence_number = 0", id);

        Response started = send("POST", "/api/v1/admin/audit/verify", null);
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        awaitJson("/api/v1/admin/audit/verify/" + started.json().get("jobId").asText(),
                job -> "DONE".equals(job.get("status").asText()));

        JsonNode breaches = send("GET", "/api/v1/workspaces/" + ws + "/audit/verify", null, null).json();
        assertThat(breaches).anySatisfy(b -> {
            assertThat(b.get("kind").asText()).isEqualTo("chain");
            assertThat(b.get("publicationId").asText()).isEqualTo(id);
            assertThat(b.get("sequence").asLong()).isZero();
        });
    }

    private JsonNode chainBreaks(String ws) {
        JsonNode listed = send("GET", "/api/v1/workspaces/" + ws + "/audit/verify", null, null).json();
        com.fasterxml.jackson.databind.node.ArrayNode breaks = json.createArrayNode();
        listed.forEach(b -> {
            if ("chain".equals(b.get("kind").asText())) {
                breaks.add(b);
            }
        });
        return breaks;
    }

    private long position(String id, long sequence) {
        return jdbc.queryForObject("SELECT global_index FROM domain_event_entry WHERE aggregate_identifier = ?"
                + " AND sequence_number = ?", Long.class, id, sequence);
    }

    @Test
    void theLiveVerifierListsAnEventOrAChainRowChangedOrRemovedAfterChainingByWorkspaceAndPosition() {
        String clean = newWorkspace("watch-clean");
        String edited = newWorkspace("watch-edit");
        String removed = newWorkspace("watch-remove");
        String rewritten = newWorkspace("watch-rewrite");
        java.util.Map<String, String> publications = new java.util.LinkedHashMap<>();
        for (String ws : List.of(clean, edited, removed, rewritten)) {
            facebookChannel(ws, "fb-main", "EAAB-token-" + ws);
            publications.put(ws, request(ws, "entry-1"));
        }
        for (String ws : publications.keySet()) {
            signedExport(ws);
        }
        watch.check();
        for (String ws : publications.keySet()) {
            assertThat(chainBreaks(ws)).as("an untouched chain in %s", ws).isEmpty();
        }

        // someone with write access to the tables, after the events were chained and signed:
        // an event's payload edited
        String editedId = publications.get(edited);
        long editedAt = position(editedId, 0);
        assertThat(jdbc.update("UPDATE domain_event_entry SET payload = convert_to(replace(convert_from(payload,"
                + " 'UTF8'), 'Chain entry-1', 'Rewritten'), 'UTF8') WHERE global_index = ?", editedAt)).isOne();
        // the workspace's newest event deleted
        long removedAt = jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry WHERE workspace_id = ?",
                Long.class, removed);
        assertThat(jdbc.update("DELETE FROM domain_event_entry WHERE global_index = ?", removedAt)).isOne();
        // a chain row given another hash
        long rewrittenAt = position(publications.get(rewritten), 0);
        assertThat(jdbc.update("UPDATE audit_chain SET hash = repeat('a', 64) WHERE global_index = ?", rewrittenAt))
                .isOne();

        watch.check();

        assertThat(chainBreaks(clean)).as("the untouched workspace").isEmpty();
        assertThat(chainBreaks(edited)).singleElement().satisfies(b -> {
            assertThat(b.get("publicationId").asText()).isEqualTo(editedId);
            assertThat(b.get("sequence").asLong()).isZero();
            assertThat(b.get("detail").asText()).contains("position " + editedAt, "changed");
        });
        assertThat(chainBreaks(removed)).isNotEmpty().allSatisfy(b ->
                        assertThat(b.get("detail").asText()).contains("position " + removedAt, "removed"))
                .anySatisfy(b -> assertThat(b.get("detail").asText()).contains("no longer in the store"));
        assertThat(chainBreaks(rewritten)).isNotEmpty()
                .anySatisfy(b -> assertThat(b.get("detail").asText()).contains("position " + rewrittenAt, "changed"));

        // what the live check found, a full re-verification finds too, and it is listed once
        Response started = send("POST", "/api/v1/admin/audit/verify", null);
        assertThat(started.status()).as(started.toString()).isEqualTo(202);
        awaitJson("/api/v1/admin/audit/verify/" + started.json().get("jobId").asText(),
                job -> "DONE".equals(job.get("status").asText()));
        assertThat(chainBreaks(edited)).hasSize(1);
        assertThat(chainBreaks(clean)).isEmpty();
    }

    @Test
    void aPublicationReadAsOfEachOfItsEventsTimesIsTheViewTheProjectionHadThen() {
        String ws = newWorkspace("as-of");
        facebookChannel(ws, "fb-main", "EAAB-token-asof");
        PublicationScenarios drive = new PublicationScenarios(commands);
        String id = request(ws, "entry-1");
        String path = "/api/v1/workspaces/" + ws + "/publications/" + id;
        List<JsonNode> views = new ArrayList<>();
        List<Long> eventsAfterStep = new ArrayList<>();
        Runnable[] steps = {
            () -> { },
            () -> drive.startAttempt(id),
            () -> drive.unknown(id, 1),
            () -> drive.readBack(id, 1, ReconciliationResult.UNKNOWN, "the Page could not be read"),
            () -> drive.readBack(id, 1, ReconciliationResult.FOUND, "one post with the same text in the window"),
        };
        for (Runnable step : steps) {
            step.run();
            long events = eventCount(id);
            // the view once the projection has applied every event of the step
            awaitJson(path, view -> events - 1 == jdbc.queryForObject(
                    "SELECT last_sequence FROM publication_view WHERE publication_id = ?", Long.class, id));
            views.add(send("GET", path, null, null).json());
            eventsAfterStep.add(events);
        }
        assertThat(views.get(views.size() - 1).get("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(eventsAfterStep).doesNotHaveDuplicates();
        JsonNode stream = send("GET", path + "/events", null, null).json();

        for (int i = 0; i < views.size(); i++) {
            String at = stream.get((int) (eventsAfterStep.get(i) - 1)).get("timestamp").asText();
            Response asOf = send("GET", path + "?asOf=" + at, null, null);
            assertThat(asOf.status()).as(asOf.toString()).isEqualTo(200);
            ObjectNode then = (ObjectNode) asOf.json();
            assertThat(Instant.parse(then.remove("asOf").asText())).isEqualTo(Instant.parse(at));
            assertThat(then).as("as of step %d (%s)", i, at).isEqualTo(views.get(i));
            if (i > 0) {
                // a moment before the step's first event: still the view the step before left
                Instant justBefore = Instant.parse(stream.get((int) (long) eventsAfterStep.get(i - 1))
                        .get("timestamp").asText()).minusMillis(1);
                ObjectNode earlier = (ObjectNode) send("GET", path + "?asOf=" + justBefore, null, null).json();
                earlier.remove("asOf");
                assertThat(earlier).as("just before step %d (%s)", i, justBefore).isEqualTo(views.get(i - 1));
            }
        }

        Instant before = Instant.parse(stream.get(0).get("timestamp").asText()).minusMillis(1);
        Response tooEarly = send("GET", path + "?asOf=" + before, null, null);
        assertThat(tooEarly.status()).isEqualTo(404);
        assertThat(tooEarly.json().get("code").asText()).isEqualTo("not_found");
        Response bad = send("GET", path + "?asOf=yesterday", null, null);
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().get("code").asText()).isEqualTo("validation_failed");
        String publisher = createKey(ws, List.of("publisher"), "calendar");
        assertThat(sendAs(publisher, "GET", path + "?asOf=" + Instant.now(), null, null, java.util.Map.of()).status())
                .as("a calendar system reads the view as it is, not as it was").isEqualTo(403);
    }
}
