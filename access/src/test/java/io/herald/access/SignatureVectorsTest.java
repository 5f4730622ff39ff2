package io.herald.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The server's verifier computes the published test vectors (docs/signers/vectors/vectors.txt). */
class SignatureVectorsTest {

    private static final Path VECTORS = Path.of("..", "docs", "signers", "vectors");

    @Test
    void theVerifierComputesEveryPublishedVector() throws IOException {
        List<String> lines = Files.readAllLines(VECTORS.resolve("vectors.txt")).stream()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        assertThat(lines).hasSizeGreaterThanOrEqualTo(3);
        for (String line : lines) {
            String[] f = line.trim().split("\\s+");
            byte[] mac = SignatureVerificationFilter.v2(f[0].getBytes(StandardCharsets.UTF_8), Long.parseLong(f[1]),
                    f[2], f[3], Files.readAllBytes(VECTORS.resolve(f[4])));
            assertThat("t=" + f[1] + ",v2=" + HexFormat.of().formatHex(mac)).as(line).isEqualTo(f[5]);
        }
    }
}
