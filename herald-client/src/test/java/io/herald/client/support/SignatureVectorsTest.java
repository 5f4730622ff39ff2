package io.herald.client.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The published test vectors ({@code docs/signers/vectors/vectors.txt}, the table of
 * docs/api.md#test-vectors) are what this client's signer writes, and what the shell and Python
 * signers of {@code docs/signers/} print for them.
 */
class SignatureVectorsTest {

    static final Path SIGNERS = Path.of("..", "docs", "signers");

    record Vector(String secret, long t, String method, String pathAndQuery, Path body, String expected) {
    }

    static List<Vector> vectors() throws IOException {
        List<Vector> vectors = new ArrayList<>();
        for (String line : Files.readAllLines(SIGNERS.resolve("vectors").resolve("vectors.txt"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.trim().split("\\s+");
            assertThat(f).as(line).hasSize(6);
            vectors.add(new Vector(f[0], Long.parseLong(f[1]), f[2], f[3], SIGNERS.resolve("vectors").resolve(f[4]),
                    f[5]));
        }
        assertThat(vectors).as("the vectors").hasSizeGreaterThanOrEqualTo(3);
        return vectors;
    }

    @Test
    void theClientsSignerWritesEveryVector() throws IOException {
        for (Vector v : vectors()) {
            assertThat(new HeraldRequestSigner(v.secret()).header(v.t(), v.method(), v.pathAndQuery(),
                    Files.readAllBytes(v.body()))).as("%s %s", v.method(), v.pathAndQuery()).isEqualTo(v.expected());
        }
    }

    @Test
    void aVectorWithAnotherBodyIsAnotherSignature() throws IOException {
        Vector v = vectors().get(0);
        byte[] body = Files.readAllBytes(v.body());
        body[body.length - 1] ^= 1;
        assertThat(new HeraldRequestSigner(v.secret()).header(v.t(), v.method(), v.pathAndQuery(), body))
                .isNotEqualTo(v.expected());
    }

    @Test
    void theShellAndPythonSignersPrintEveryVector() throws Exception {
        for (Vector v : vectors()) {
            for (List<String> signer : List.of(List.of("sh", "sign.sh"), List.of("python3", "sign.py"))) {
                List<String> command = new ArrayList<>(signer);
                command.addAll(List.of(v.secret(), String.valueOf(v.t()), v.method(), v.pathAndQuery(),
                        SIGNERS.relativize(v.body()).toString()));
                Process process = new ProcessBuilder(command).directory(SIGNERS.toFile())
                        .redirectErrorStream(true).start();
                String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
                assertThat(process.exitValue()).as("%s: %s", command, out).isZero();
                assertThat(out).as("%s", command).isEqualTo(v.expected());
            }
        }
    }
}
