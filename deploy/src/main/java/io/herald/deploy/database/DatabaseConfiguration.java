package io.herald.deploy.database;

import io.herald.platform.database.DatabaseGateFilter;
import io.herald.platform.database.DatabaseWatch;
import javax.sql.DataSource;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.security.SecurityProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Every wait on the database has a bound (docs/operations.md#a-database-that-stops-answering): the pool's
 * and the driver's are in application.yml; here the check that readiness and the API's gate ask,
 * which answers within {@code herald.database.check-timeout} however the database behaves.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DatabaseProperties.class)
public class DatabaseConfiguration {

    @Bean(destroyMethod = "close")
    DatabaseWatch databaseWatch(DataSource dataSource, DatabaseProperties properties) {
        return new DatabaseWatch(dataSource, properties.checkTimeout(), properties.checkInterval());
    }

    /**
     * Takes the place of Spring Boot's database check ({@code db} in the readiness group), which
     * asks on the application's pool without a bound of its own: with the network silent it waited
     * for the pool and then the driver, and readiness never answered.
     */
    @Bean
    HealthIndicator dbHealthIndicator(DatabaseWatch watch) {
        return () -> watch.check() ? Health.up().build() : Health.down().build();
    }

    /** Before authentication, which reads keys from the database. */
    @Bean
    FilterRegistrationBean<DatabaseGateFilter> databaseGate(DatabaseWatch watch) {
        FilterRegistrationBean<DatabaseGateFilter> registration = new FilterRegistrationBean<>(new DatabaseGateFilter(watch));
        registration.addUrlPatterns("/api/*");
        registration.setOrder(SecurityProperties.DEFAULT_FILTER_ORDER - 1);
        return registration;
    }
}
