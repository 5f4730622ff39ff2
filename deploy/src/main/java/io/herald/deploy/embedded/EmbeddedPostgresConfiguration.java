package io.herald.deploy.embedded;

import org.springframework.boot.context.properties.EnableConfigurationProperties;

import io.herald.platform.data.DataDirectory;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * The default run's database: an embedded PostgreSQL whose data lives in a local folder
 * ({@code herald.data-dir}, default {@code ./herald-data}) and survives restarts. Used only when
 * {@code spring.datasource.url} is not set; production points that at a real server. It listens on
 * 127.0.0.1 only and takes only its password (see {@link EmbeddedDatabase}).
 */
@Configuration(proxyBeanMethods = false)
@Conditional(NoDatasourceUrlCondition.class)
@EnableConfigurationProperties(EmbeddedPostgresProperties.class)
public class EmbeddedPostgresConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedDatabase embeddedDatabase(Environment environment, EmbeddedPostgresProperties properties)
            throws IOException {
        requireBinaries();
        Path dataFolder = DataDirectory.resolve(environment);
        EmbeddedDatabase database = EmbeddedDatabase.start(dataFolder, properties.port());
        log.info("embedded PostgreSQL on 127.0.0.1:{} with data in {}", database.port(), dataFolder.resolve("postgres"));
        return database;
    }

    /** A {@code -Pproduction} build carries no PostgreSQL binaries, and the default one only Linux amd64's. */
    static void requireBinaries() throws IOException {
        if (new PathMatchingResourcePatternResolver().getResources("classpath*:postgres-*.txz").length == 0) {
            throw new NoEmbeddedDatabaseException(System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        }
    }

    @Bean
    @ConfigurationProperties("spring.datasource.hikari")
    DataSource dataSource(EmbeddedDatabase database) {
        HikariDataSource dataSource = new HikariDataSource();
        dataSource.setJdbcUrl(database.jdbcUrl("postgres"));
        dataSource.setUsername(EmbeddedDatabase.USER);
        dataSource.setPassword(database.password());
        return dataSource;
    }
}
