package io.herald.query.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The canonical form, the key and the export check, against values made with other tools. */
class AuditChainTest {

    /** Made with {@code openssl genpkey -algorithm ed25519}. */
    private static final String OPENSSL_KEY = """
            -----BEGIN PRIVATE KEY-----
            MC4CAQAwBQYDK2VwBCIEIIHMJOFZ/Or60qmx6bfUAe/vKPcWlPZXX1DaSwpTD0dy
            -----END PRIVATE KEY-----
            """;
    /** {@code openssl pkey -pubout -outform DER | tail -c 32 | base64} of that key. */
    private static final String OPENSSL_PUBLIC = "u8QmQddrARaAkcCOAw8MXMdQqOlq+9EwbkbMRT9BaKA=";
    /** {@code openssl pkeyutl -sign -rawin} of "hello" with that key. */
    private static final String OPENSSL_SIGNATURE =
            "Gkr921ViyTgmJfqjjge5OcHR1cmvsbt+mRIvyJsYfe/whiXaWP9qmtlYNly5e1IyYLkXCqhxVY1YAaE4hupPAA==";

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void theCanonicalFormSortsMembersAndWritesNoWhitespace() throws IOException {
        String canonical = CanonicalJson.of(json.readTree(
                "{ \"b\": 1, \"a\": \"line\\nbreak \\u0001 é\", \"c\": [true, null, 2.50, 1E3, 1e-7], \"B\": {} }"));

        assertThat(canonical).isEqualTo("{\"B\":{},\"a\":\"line\\nbreak \\u0001 é\",\"b\":1,\"c\":[true,null,2.5,1000,1e-7]}");
    }

    @Test
    void aKeyFromOpensslHasOpensslsPublicKeyAndSignsAsOpensslDoes() {
        AuditSigner signer = AuditSigner.parse(OPENSSL_KEY);

        assertThat(signer.publicKey()).isEqualTo(OPENSSL_PUBLIC);
        // Ed25519 is deterministic: the same key signs the same text the same way
        assertThat(signer.sign("hello")).isEqualTo(OPENSSL_SIGNATURE);
        assertThat(AuditSigner.verify(OPENSSL_PUBLIC, "hello", OPENSSL_SIGNATURE)).isTrue();
        assertThat(AuditSigner.verify(OPENSSL_PUBLIC, "hello!", OPENSSL_SIGNATURE)).isFalse();
        assertThat(signer.keyId()).isEqualTo(AuditSigner.keyIdOf(OPENSSL_PUBLIC)).startsWith("ed25519-");
        assertThat(signer.toString()).doesNotContain(OPENSSL_PUBLIC);
    }

    @Test
    void anExportThatHoldsIsVerifiedAndEachAlterationIsNamedByLine() throws IOException {
        AuditSigner signer = AuditSigner.parse(OPENSSL_KEY);
        List<String> lines = export(signer, 4);
        Map<String, String> keys = Map.of(signer.keyId(), signer.publicKey());

        assertThat(check(keys, lines).verified()).isTrue();

        List<String> removed = new ArrayList<>(lines);
        removed.remove(1);
        assertThat(check(keys, removed).badLine()).isEqualTo(2);

        List<String> changed = new ArrayList<>(lines);
        changed.set(2, changed.get(2).replace("\"n\":2", "\"n\":20"));
        assertThat(check(keys, changed).badLine()).isEqualTo(3);
        assertThat(check(keys, changed).problem()).contains("changed");

        List<String> swapped = new ArrayList<>(lines);
        swapped.set(1, lines.get(2));
        swapped.set(2, lines.get(1));
        assertThat(check(keys, swapped).badLine()).isEqualTo(2);

        List<String> resigned = new ArrayList<>(lines);
        resigned.set(4, resigned.get(4).replace("\"at\":\"2026", "\"at\":\"2027"));
        assertThat(check(keys, resigned).badLine()).isEqualTo(5);
        assertThat(check(keys, resigned).problem()).contains("signature");

        assertThat(check(Map.of(), lines).badLine()).as("an unknown key proves nothing").isEqualTo(5);
    }

    @Test
    void anExportThatBeganAfterAPositionVerifiesFromTheSignedCheckpointItStartsWith() throws IOException {
        AuditSigner signer = AuditSigner.parse(OPENSSL_KEY);
        Map<String, String> keys = Map.of(signer.keyId(), signer.publicKey());
        List<String> whole = export(signer, 4);
        // as the export after position 11 writes it: the checkpoint of position 11, then the lines after it
        List<String> fromTheMiddle = new ArrayList<>();
        fromTheMiddle.add(export(signer, 2).get(2));
        fromTheMiddle.addAll(whole.subList(2, 5));

        assertThat(partial(keys, fromTheMiddle).verified()).as(partial(keys, fromTheMiddle).problem()).isTrue();
        assertThat(check(keys, fromTheMiddle).badLine()).as("only when said to be partial").isEqualTo(1);

        List<String> firstLineRemoved = new ArrayList<>(fromTheMiddle);
        firstLineRemoved.remove(1);
        assertThat(partial(keys, firstLineRemoved).badLine()).isEqualTo(2);
        assertThat(partial(keys, firstLineRemoved).problem()).contains("prevHash");

        List<String> anchorRemovedToo = new ArrayList<>(firstLineRemoved);
        anchorRemovedToo.remove(0);
        assertThat(partial(keys, anchorRemovedToo).badLine()).isEqualTo(1);
        assertThat(partial(keys, anchorRemovedToo).problem()).contains("workspace 'acme'", "signed checkpoint");

        List<String> unanchored = new ArrayList<>(whole.subList(2, 5));
        assertThat(partial(keys, unanchored).badLine()).as("a first line anchored to nothing").isEqualTo(1);
    }

    @Test
    void everyChainMustEndAtASignedCheckpointUnlessAnUnsignedTailIsAllowed() throws IOException {
        AuditSigner signer = AuditSigner.parse(OPENSSL_KEY);
        Map<String, String> keys = Map.of(signer.keyId(), signer.publicKey());
        // a whole-store export: two chains, interleaved, each with its checkpoint at the end
        List<String> acme = export(signer, "acme", 3);
        List<String> beta = export(signer, "beta", 3);
        List<String> store = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            store.add(acme.get(i));
            store.add(beta.get(i));
        }
        store.add(acme.get(3));
        store.add(beta.get(3));
        assertThat(check(keys, store).verified()).as(check(keys, store).problem()).isTrue();

        List<String> betaCheckpointRemoved = new ArrayList<>(store.subList(0, 7));
        ExportVerifier.Result refused = check(keys, betaCheckpointRemoved);
        assertThat(refused.badLine()).as("beta's first line").isEqualTo(2);
        assertThat(refused.problem()).contains("workspace 'beta'", "3 lines", "no signed checkpoint");

        // five lines and the checkpoint of the third
        List<String> withTail = new ArrayList<>(export(signer, 5).subList(0, 5));
        withTail.add(acme.get(3));
        ExportVerifier.Result uncovered = check(keys, withTail);
        assertThat(uncovered.badLine()).as("the first line after the checkpoint").isEqualTo(4);
        assertThat(uncovered.problem()).contains("workspace 'acme'", "2 lines from line 4", "after its last checkpoint");
        ExportVerifier.Result allowed = new ExportVerifier(keys, false, true).verify(reader(withTail));
        assertThat(allowed.verified()).isTrue();
        assertThat(allowed.notes()).singleElement().asString().contains("workspace 'acme'", "2 lines");

        assertThat(check(keys, export(signer, 3).subList(0, 3)).problem()).contains("without a checkpoint");
    }

    @Test
    void anExportSignsTheLastLineOfEachChainThatNoStoredCheckpointReaches() {
        AuditChainRepository.Link acme = new AuditChainRepository.Link(40, 12, "acme", "p", "h-acme");
        AuditChainRepository.Link beta = new AuditChainRepository.Link(41, 13, "beta", "p", "h-beta");
        AuditChainRepository.Link gamma = new AuditChainRepository.Link(42, 14, "gamma", "p", "h-gamma");
        Map<String, AuditChainRepository.Link> lastLines = new java.util.LinkedHashMap<>();
        lastLines.put("acme", acme);
        lastLines.put("beta", beta);
        lastLines.put("gamma", gamma);
        // acme's newest checkpoint is at its last line, beta's before it, gamma has none
        List<AuditChainRepository.Checkpoint> stored = List.of(
                new AuditChainRepository.Checkpoint("acme", 40, 12, "h-acme", "at", "k", "s"),
                new AuditChainRepository.Checkpoint("beta", 30, 9, "h-old", "at", "k", "s"));

        assertThat(AuditChain.uncovered(lastLines, stored)).containsExactly(beta, gamma);
        assertThat(AuditChain.uncovered(lastLines, List.of())).containsExactly(acme, beta, gamma);
        assertThat(AuditChain.uncovered(Map.of("acme", acme), stored)).isEmpty();
    }

    private ExportVerifier.Result partial(Map<String, String> keys, List<String> lines) throws IOException {
        return new ExportVerifier(keys, true).verify(reader(lines));
    }

    private static BufferedReader reader(List<String> lines) {
        return new BufferedReader(new StringReader(String.join("\n", lines)));
    }

    private ExportVerifier.Result check(Map<String, String> keys, List<String> lines) throws IOException {
        return new ExportVerifier(keys, false).verify(new BufferedReader(new StringReader(String.join("\n", lines))));
    }

    /** Lines as the export writes them: a chain of {@code n} events of one workspace and its checkpoint. */
    private List<String> export(AuditSigner signer, int n) throws IOException {
        return export(signer, "acme", n);
    }

    private List<String> export(AuditSigner signer, String ws, int n) throws IOException {
        List<String> lines = new ArrayList<>();
        String prev = AuditChain.ORIGIN;
        for (int i = 0; i < n; i++) {
            ObjectNode line = json.createObjectNode();
            line.put("position", ("acme".equals(ws) ? 10 : 100) + i);
            line.put("type", "SomethingHappened");
            line.putObject("payload").put("n", i).put("workspaceId", ws);
            line.put(AuditChain.WORKSPACE, ws);
            String hash = AuditChain.hash(prev, line);
            line.put(AuditChain.PREV_HASH, prev);
            line.put(AuditChain.HASH, hash);
            lines.add(json.writeValueAsString(line));
            prev = hash;
        }
        String at = "2026-12-05T09:04:00Z";
        long position = ("acme".equals(ws) ? 10 : 100) + n - 1;
        ObjectNode checkpoint = json.createObjectNode();
        checkpoint.putObject("checkpoint").put("workspaceId", ws).put("position", position).put("hash", prev)
                .put("at", at).put("keyId", signer.keyId())
                .put("signature", signer.sign(AuditChain.signedText(ws, position, prev, at)));
        lines.add(json.writeValueAsString(checkpoint));
        return lines;
    }
}
