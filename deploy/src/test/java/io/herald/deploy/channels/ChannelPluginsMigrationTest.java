package io.herald.deploy.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.herald.adapters.ChannelAdaptersConfiguration;
import io.herald.adapters.PluginProperties;
import io.herald.adapters.facebook.FacebookSecrets;
import io.herald.adapters.facebook.FacebookSettings;
import io.herald.adapters.outbound.OutboundGuard;
import io.herald.adapters.port.ChannelConnection;
import io.herald.adapters.port.ChannelPlugins;
import io.herald.adapters.wordpress.WordPressSecrets;
import io.herald.adapters.wordpress.WordPressSettings;
import io.herald.command.channel.ChannelCacheProperties;
import io.herald.command.channel.ChannelConnectionStore;
import io.herald.contracts.channel.ChannelType;
import io.herald.contracts.id.ChannelId;
import io.herald.contracts.id.WorkspaceId;
import io.herald.platform.secrets.CredentialCipher;
import io.herald.testsupport.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.junit.jupiter.api.Test;
import org.springframework.http.converter.json.Jackson2ObjectMapperBuilder;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Connection rows and view rows as the code before channel plug-ins wrote them (settings with every
 * provider's fields, untagged; secrets with every provider's fields; view types as enum names) read
 * as each plug-in's own records once the database is migrated.
 */
class ChannelPluginsMigrationTest {

    private static final byte[] KEY = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    @Test
    void storedConnectionsAndViewsReadAsThePlugInsRecords() throws Exception {
        TestDatabase database = TestDatabase.shared().freshSibling();
        // the schema before channel plug-ins: the last migration before theirs
        flyway(database, lastVersionBefore(database, "2026.12.04.70")).migrate();
        CredentialCipher cipher = new CredentialCipher(KEY);
        try (Connection c = database.connect()) {
            connection(c, cipher, "fb-main", "facebook",
                    "{\"pageId\":\"100200300400500\",\"authorUrn\":null,\"scopes\":null,\"siteUrl\":null,"
                            + "\"username\":null,\"readTokenStored\":true}",
                    "{\"pageAccessToken\":\"page-token\",\"readAccessToken\":\"user-token\",\"accessToken\":null,"
                            + "\"applicationPassword\":null}");
            connection(c, cipher, "blog", "wordpress",
                    "{\"pageId\":null,\"authorUrn\":null,\"scopes\":null,\"siteUrl\":\"https://blog.example\","
                            + "\"username\":\"editor\",\"readTokenStored\":false}",
                    "{\"pageAccessToken\":null,\"readAccessToken\":null,\"accessToken\":null,"
                            + "\"applicationPassword\":\"abcd efgh\"}");
            try (Statement s = c.createStatement()) {
                s.execute("""
                        INSERT INTO channel_connection_view (workspace_id, channel_id, connection_id, type, settings,
                            auto_reattempt, credential_version, updated_at, last_sequence)
                        VALUES ('acme', 'li-main', 'chn_acme/li-main', 'LINKEDIN',
                            '{"pageId":null,"authorUrn":"urn:li:person:abc","scopes":["w_member_social"],
                              "siteUrl":null,"username":null,"readTokenStored":false}', false, 1, now(), 0)""");
                s.execute("""
                        INSERT INTO publication_view (publication_id, workspace_id, calendar_entry_id, content_version,
                            channel_id, channel_type, action, status, content_hash, requested_at, updated_at,
                            last_sequence)
                        VALUES ('pub_x', 'acme', 'entry-1', 1, 'li-main', 'LINKEDIN', 'publish', 'SUCCEEDED', 'h',
                            now(), now(), 3)""");
            }
        }

        flyway(database, "latest").migrate();

        ChannelPlugins plugins = ChannelAdaptersConfiguration.create(PluginProperties.defaults(),
                OutboundGuard.privateNetworksAllowed(), Clock.systemUTC());
        ObjectMapper json = Jackson2ObjectMapperBuilder.json().modulesToInstall(plugins.jacksonModule()).build();
        JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(database.jdbcUrl()));
        ChannelConnectionStore store = new ChannelConnectionStore(jdbc, cipher, json, plugins,
                new ChannelCacheProperties(Duration.ofSeconds(2), 4));

        ChannelConnection facebook = store.find(new WorkspaceId("acme"), new ChannelId("fb-main")).orElseThrow();
        assertThat(facebook.type()).isEqualTo(ChannelType.of("facebook"));
        assertThat(facebook.settings()).isEqualTo(new FacebookSettings("100200300400500", true));
        assertThat(facebook.secrets()).isEqualTo(new FacebookSecrets("page-token", "user-token"));
        ChannelConnection blog = store.find(new WorkspaceId("acme"), new ChannelId("blog")).orElseThrow();
        assertThat(blog.settings()).isEqualTo(new WordPressSettings("https://blog.example", "editor"));
        assertThat(blog.secrets()).isEqualTo(new WordPressSecrets("abcd efgh"));

        JsonNode stored = json.readTree(jdbc.queryForObject(
                "SELECT settings::text FROM channel_connection WHERE channel_id = 'fb-main'", String.class));
        assertThat(stored.get("type").asText()).isEqualTo("facebook");
        assertThat(stored.has("authorUrn")).as("another provider's null field is gone").isFalse();
        assertThat(jdbc.queryForObject("SELECT type FROM channel_connection_view", String.class))
                .isEqualTo("linkedin");
        JsonNode viewed = json.readTree(jdbc.queryForObject(
                "SELECT settings::text FROM channel_connection_view", String.class));
        assertThat(viewed.get("type").asText()).isEqualTo("linkedin");
        assertThat(viewed.get("authorUrn").asText()).isEqualTo("urn:li:person:abc");
        assertThat(jdbc.queryForObject("SELECT channel_type FROM publication_view", String.class))
                .isEqualTo("linkedin");
    }

    private static void connection(Connection c, CredentialCipher cipher, String channel, String type,
                                   String settings, String secrets) throws Exception {
        try (PreparedStatement insert = c.prepareStatement("""
                INSERT INTO channel_connection (workspace_id, channel_id, channel_type, settings, credential_version,
                                                secrets_ciphertext, auto_reattempt, updated_at)
                VALUES ('acme', ?, ?, ?::jsonb, 1, ?, false, now())""")) {
            insert.setString(1, channel);
            insert.setString(2, type);
            insert.setString(3, settings);
            insert.setBytes(4, cipher.encrypt(secrets.getBytes(StandardCharsets.UTF_8), "acme/" + channel + "/1"));
            insert.executeUpdate();
        }
    }

    private static String lastVersionBefore(TestDatabase database, String version) {
        MigrationVersion first = MigrationVersion.fromVersion(version);
        return Arrays.stream(flyway(database, "latest").info().all())
                .map(MigrationInfo::getVersion)
                .filter(v -> v != null && v.compareTo(first) < 0)
                .max(MigrationVersion::compareTo).orElseThrow().getVersion();
    }

    private static Flyway flyway(TestDatabase database, String target) {
        return Flyway.configure().dataSource(database.jdbcUrl(), null, null).locations("classpath:db/migration")
                .target(target).load();
    }
}
