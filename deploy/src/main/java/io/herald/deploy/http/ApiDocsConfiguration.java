package io.herald.deploy.http;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI document's frame: what Herald is, and that every {@code /api/**} call carries an API
 * key as a bearer token, so generated clients and the Swagger UI's "Authorize" send it.
 */
@Configuration(proxyBeanMethods = false)
public class ApiDocsConfiguration {

    static final String API_KEY = "apiKey";

    @Bean
    OpenAPI heraldOpenApi() {
        return new OpenAPI()
                .info(new Info().title("Herald").version("v1")
                        .description("Publishes calendar entries to Facebook Pages, LinkedIn and WordPress without"
                                + " posting twice; every step is an event."))
                // relative, so the served document does not depend on the host and port it was fetched from
                .servers(List.of(new Server().url("/")))
                .components(new Components().addSecuritySchemes(API_KEY, new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP).scheme("bearer")
                        .description("A Herald API key: Authorization: Bearer k_…")))
                .addSecurityItem(new SecurityRequirement().addList(API_KEY));
    }
}
