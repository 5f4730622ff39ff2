package io.herald.deploy.http;

import io.herald.adapters.port.ChannelPlugins;
import io.herald.contracts.channel.ChannelType;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Contact;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI document's frame: what Herald is, and that every {@code /api/**} call carries an API
 * key as a bearer token, so generated clients and the Swagger UI's "Authorize" send it, together
 * with the request signature where the workspace requires one.
 */
@Configuration(proxyBeanMethods = false)
public class ApiDocsConfiguration {

    static final String API_KEY = "apiKey";
    static final String SIGNATURE = "signature";

    @Bean
    OpenAPI heraldOpenApi(ChannelPlugins channelPlugins) {
        return new OpenAPI()
                .info(new Info().title("Herald").version("v1")
                        .description("Publishes calendar entries to the channels of its plug-ins ("
                                + String.join(", ", channelPlugins.types().stream().map(ChannelType::wireName).toList())
                                + ") without posting twice; every step is an event.")
                        .contact(new Contact().name("Herald maintainers"))
                        .license(new License().name("Apache-2.0").identifier("Apache-2.0")))
                // relative, so the served document does not depend on the host and port it was fetched from
                .servers(List.of(new Server().url("/")))
                .components(new Components()
                        .addSecuritySchemes(API_KEY, new SecurityScheme()
                                .type(SecurityScheme.Type.HTTP).scheme("bearer")
                                .description("A Herald API key: Authorization: Bearer k_…"))
                        .addSecuritySchemes(SIGNATURE, new SecurityScheme()
                                .type(SecurityScheme.Type.APIKEY).in(SecurityScheme.In.HEADER)
                                .name("X-Herald-Signature")
                                .description("Required on every mutating call (POST, PUT, PATCH, DELETE) to a"
                                        + " workspace that set a signing secret: t=<unix seconds>,v2=<hex"
                                        + " HMAC-SHA256(secret, t \\n METHOD \\n path?query \\n hex SHA-256(body))>."
                                        + " A signature is accepted once, within the configured tolerance of t;"
                                        + " a missing, stale or wrong one is 401 signature_invalid.")))
                // the key alone, or the key and the signature where the workspace signs its requests
                .addSecurityItem(new SecurityRequirement().addList(API_KEY))
                .addSecurityItem(new SecurityRequirement().addList(API_KEY).addList(SIGNATURE));
    }
}
