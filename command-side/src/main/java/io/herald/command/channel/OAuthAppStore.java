package io.herald.command.channel;

import io.herald.adapters.port.OAuthApps;
import io.herald.platform.secrets.CredentialCipher;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * Herald's registrations on servers that register apps per server, one per server and callback
 * address, the client secret encrypted. A registration that no configured key opens any more is
 * treated as absent: the server is asked for a new one.
 */
@Repository
public class OAuthAppStore implements OAuthApps {

    private static final Logger log = LoggerFactory.getLogger(OAuthAppStore.class);

    private final JdbcTemplate jdbc;
    private final CredentialCipher cipher;
    private final Clock clock;

    public OAuthAppStore(JdbcTemplate jdbc, CredentialCipher cipher, Clock clock) {
        this.jdbc = jdbc;
        this.cipher = cipher;
        this.clock = clock;
    }

    @Override
    public Optional<App> find(String server, String redirectUri) {
        return jdbc.query("""
                        SELECT client_id, client_secret_ciphertext FROM oauth_app_registration
                        WHERE server_url = ? AND redirect_uri = ?""",
                (rs, n) -> {
                    try {
                        byte[] secret = cipher.decrypt(rs.getBytes(2), associatedData(server, redirectUri));
                        return Optional.of(new App(rs.getString(1), new String(secret, StandardCharsets.UTF_8)));
                    } catch (IllegalStateException e) {
                        log.warn("the app registration on {} no longer decrypts; registering again", server);
                        return Optional.<App>empty();
                    }
                }, server, redirectUri).stream().flatMap(Optional::stream).findFirst();
    }

    @Override
    public void save(String server, String redirectUri, App app) {
        jdbc.update("""
                        INSERT INTO oauth_app_registration (server_url, redirect_uri, client_id, client_secret_ciphertext,
                                                            registered_at)
                        VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (server_url, redirect_uri) DO UPDATE SET client_id = EXCLUDED.client_id,
                            client_secret_ciphertext = EXCLUDED.client_secret_ciphertext,
                            registered_at = EXCLUDED.registered_at""",
                server, redirectUri, app.clientId(),
                cipher.encrypt(app.clientSecret().getBytes(StandardCharsets.UTF_8), associatedData(server, redirectUri)),
                java.sql.Timestamp.from(clock.instant()));
        log.info("registered Herald as an OAuth app on {}", server);
    }

    private static String associatedData(String server, String redirectUri) {
        return "oauth-app:" + server + "|" + redirectUri;
    }
}
