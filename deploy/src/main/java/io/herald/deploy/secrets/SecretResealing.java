package io.herald.deploy.secrets;

import io.swagger.v3.oas.annotations.Operation;
import io.herald.command.channel.ChannelConnectionStore;
import io.herald.platform.secrets.CredentialCipher;
import io.herald.command.webhook.WebhookStore;
import io.herald.access.SigningSecrets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Key rotation's middle step (system key): every stored secret that is not yet under the first
 * configured key is encrypted again with it. Safe to repeat and to run on any node; once it
 * reports nothing left, the old keys can be removed from the configuration.
 */
@RestController
public class SecretResealing {

    private static final Logger log = LoggerFactory.getLogger(SecretResealing.class);

    private final CredentialCipher cipher;
    private final ChannelConnectionStore connections;
    private final WebhookStore webhooks;
    private final SigningSecrets signingSecrets;

    public SecretResealing(CredentialCipher cipher, ChannelConnectionStore connections, WebhookStore webhooks,
                           SigningSecrets signingSecrets) {
        this.cipher = cipher;
        this.connections = connections;
        this.webhooks = webhooks;
        this.signingSecrets = signingSecrets;
    }

    /** How many secrets of each kind were re-encrypted, and with which key. */
    public record Resealed(String keyId, int channelConnections, int webhookSecrets, int signingSecrets) {
    }

    @Operation(description = "Re-encrypts every stored secret (channel credentials, webhook and signing secrets) with "
            + "the first configured encryption key, so an older key can be removed. System key only.")
    @PostMapping(path = "/api/v1/admin/secrets/re-encrypt", produces = MediaType.APPLICATION_JSON_VALUE)
    public Resealed reEncrypt() {
        Resealed done = new Resealed(cipher.primaryKeyId(), connections.resealAll(), webhooks.resealAll(),
                signingSecrets.resealAll());
        log.info("re-encrypted with key {}: {} channel connections, {} webhook secrets, {} signing secrets",
                done.keyId(), done.channelConnections(), done.webhookSecrets(), done.signingSecrets());
        return done;
    }
}
