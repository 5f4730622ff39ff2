package io.herald.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DatasourceUrlsTest {

    @Test
    void theLoggedUrlNamesHostAndDatabaseButNoCredentials() {
        assertThat(DatasourceUrls.withoutCredentials("jdbc:postgresql://db.internal:5432/herald"))
                .isEqualTo("jdbc:postgresql://db.internal:5432/herald");
        assertThat(DatasourceUrls.withoutCredentials(
                "jdbc:postgresql://db.internal:5432/herald?user=herald&password=s3cr3t&sslmode=require"))
                .isEqualTo("jdbc:postgresql://db.internal:5432/herald?…").doesNotContain("s3cr3t");
        assertThat(DatasourceUrls.withoutCredentials("jdbc:postgresql://herald:s3cr3t@db.internal/herald"))
                .isEqualTo("jdbc:postgresql://db.internal/herald");
        assertThat(DatasourceUrls.withoutCredentials("jdbc:sqlserver://db;user=sa;password=s3cr3t"))
                .doesNotContain("s3cr3t");
        assertThat(DatasourceUrls.withoutCredentials(null)).isEqualTo("(not set)");
    }
}
