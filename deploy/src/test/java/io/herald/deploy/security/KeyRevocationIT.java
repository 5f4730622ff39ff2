package io.herald.deploy.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Nodes keep a key's row for a moment; the node that revokes a key refuses it at once. */
class KeyRevocationIT extends SecurityIntegrationTest {

    @Test
    void aKeyInUseIsRefusedRightAfterItsRevocation() {
        String ws = newWorkspace("revoke");
        createWorkspace(ws);
        String admin = createKey(ws, List.of("admin"), "admin");
        String auditor = createKey(ws, List.of("auditor"), "soon-revoked");
        String path = "/api/v1/workspaces/" + ws + "/publications";
        assertThat(sendAs(auditor, "GET", path, null).status()).isEqualTo(200);
        assertThat(sendAs(auditor, "GET", path, null).status()).isEqualTo(200);

        String keyId = auditor.substring(0, auditor.indexOf('.'));
        assertThat(sendAs(admin, "DELETE", "/api/v1/workspaces/" + ws + "/keys/" + keyId, null).status())
                .isEqualTo(204);

        Response refused = sendAs(auditor, "GET", path, null);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(401);
        assertThat(refused.json().get("code").asText()).isEqualTo("unauthenticated");
    }
}
