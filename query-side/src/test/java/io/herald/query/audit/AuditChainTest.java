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
    void anExportThatBeganAfterAPositionVerifiesOnlyWhenSaidSo() throws IOException {
        AuditSigner signer = AuditSigner.parse(OPENSSL_KEY);
        Map<String, String> keys = Map.of(signer.keyId(), signer.publicKey());
        List<String> fromTheMiddle = new ArrayList<>(export(signer, 4).subList(2, 5));

        assertThat(check(keys, fromTheMiddle).badLine()).as("its first line does not start the chain").isEqualTo(1);
        assertThat(new ExportVerifier(keys, true).verify(new BufferedReader(new StringReader(
                String.join("\n", fromTheMiddle)))).verified()).isTrue();

        List<String> earlierCheckpoint = new ArrayList<>(export(signer, 4).subList(2, 4));
        earlierCheckpoint.add(export(signer, 1).get(1));
        assertThat(new ExportVerifier(keys, true).verify(new BufferedReader(new StringReader(
                String.join("\n", earlierCheckpoint)))).notes()).singleElement().asString().contains("none covered");
    }

    private ExportVerifier.Result check(Map<String, String> keys, List<String> lines) throws IOException {
        return new ExportVerifier(keys, false).verify(new BufferedReader(new StringReader(String.join("\n", lines))));
    }

    /** Lines as the export writes them: a chain of {@code n} events of one workspace and its checkpoint. */
    private List<String> export(AuditSigner signer, int n) throws IOException {
        List<String> lines = new ArrayList<>();
        String prev = AuditChain.ORIGIN;
        for (int i = 0; i < n; i++) {
            ObjectNode line = json.createObjectNode();
            line.put("position", 10 + i);
            line.put("type", "SomethingHappened");
            line.putObject("payload").put("n", i).put("workspaceId", "acme");
            line.put(AuditChain.WORKSPACE, "acme");
            String hash = AuditChain.hash(prev, line);
            line.put(AuditChain.PREV_HASH, prev);
            line.put(AuditChain.HASH, hash);
            lines.add(json.writeValueAsString(line));
            prev = hash;
        }
        String at = "2026-12-05T09:04:00Z";
        long position = 10 + n - 1;
        ObjectNode checkpoint = json.createObjectNode();
        checkpoint.putObject("checkpoint").put("workspaceId", "acme").put("position", position).put("hash", prev)
                .put("at", at).put("keyId", signer.keyId())
                .put("signature", signer.sign(AuditChain.signedText("acme", position, prev, at)));
        lines.add(json.writeValueAsString(checkpoint));
        return lines;
    }
}
