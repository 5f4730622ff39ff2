package io.herald.access;

import io.herald.platform.config.SandboxProperties;

import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.herald.contracts.error.ErrorCode;
import java.io.IOException;
import java.time.Clock;
import java.util.OptionalLong;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.WebSecurityCustomizer;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.intercept.AuthorizationFilter;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.security.web.header.HeaderWriter;
import org.springframework.security.web.header.writers.ContentSecurityPolicyHeaderWriter;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

/**
 * Stateless HTTP security: API keys (Bearer), roles per endpoint, workspace isolation, signed
 * bodies where a workspace asks for them, a rate limit per key, a Content-Security-Policy on
 * every answer. Every refusal is problem+json.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({SecurityProperties.class, SandboxProperties.class})
public class SecurityConfiguration {

    @Bean
    SystemKey systemKey(SecurityProperties properties, Environment environment) throws IOException {
        return SystemKey.resolve(properties, environment);
    }

    @Bean
    RateLimiterRegistry apiKeyRateLimiters(SecurityProperties properties) {
        return RateLimits.registry(properties.rateLimit());
    }

    @Bean
    ClientAddressLimits clientAddressLimits(SecurityProperties properties) {
        return new ClientAddressLimits(properties.unauthenticatedRateLimit());
    }

    @Bean
    SecurityFilterChain api(HttpSecurity http, SystemKey systemKey, ApiKeyStore keys,
                            RateLimiterRegistry apiKeyRateLimiters, ClientAddressLimits addressLimits,
                            SigningSecrets signingSecrets,
                            ProblemResponses problems, SecurityProperties properties, Clock clock,
                            SandboxProperties sandbox) throws Exception {
        AccessRules rules = new AccessRules(sandbox.enabled());
        return http
                .csrf(csrf -> csrf.disable())
                .httpBasic(basic -> basic.disable())
                .formLogin(form -> form.disable())
                .logout(logout -> logout.disable())
                .requestCache(cache -> cache.disable())
                .sessionManagement(s -> s.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .headers(headers -> headers.addHeaderWriter(contentSecurityPolicy()))
                .addFilterBefore(new ApiKeyAuthenticationFilter(systemKey, keys, new RateLimits(apiKeyRateLimiters),
                        addressLimits, problems), AuthorizationFilter.class)
                .addFilterAfter(new Utf8BodyFilter(rules, problems), AuthorizationFilter.class)
                .addFilterAfter(new SignatureVerificationFilter(signingSecrets, problems, clock,
                        properties.signatureTolerance(), properties.acceptV1Signatures()), Utf8BodyFilter.class)
                .authorizeHttpRequests(auth -> auth.anyRequest().access(rules))
                .exceptionHandling(errors -> errors
                        .authenticationEntryPoint((request, response, e) -> {
                            // a presented key was counted when it was refused; a call without one is counted here
                            OptionalLong over = request.getHeader("Authorization") == null
                                    ? addressLimits.refuse(request.getRemoteAddr()) : OptionalLong.empty();
                            if (over.isPresent()) {
                                response.setHeader("Retry-After", Long.toString(over.getAsLong()));
                                problems.write(request, response, ErrorCode.RATE_LIMITED, "too many calls without"
                                        + " a valid key from this address; retry after the number of seconds in"
                                        + " Retry-After");
                            } else {
                                problems.write(request, response, ErrorCode.UNAUTHENTICATED,
                                        "a valid API key is required: Authorization: Bearer <key>");
                            }
                        })
                        .accessDeniedHandler((request, response, e) -> {
                            if (request.getAttribute(AccessRules.HIDDEN_ATTRIBUTE) != null) {
                                problems.write(request, response, ErrorCode.NOT_FOUND, "not found");
                            } else if (request.getAttribute(AccessRules.UNLISTED_ATTRIBUTE) != null) {
                                problems.write(request, response, ErrorCode.FORBIDDEN,
                                        "no key may send this method to this path");
                            } else {
                                problems.write(request, response, ErrorCode.FORBIDDEN,
                                        "this key lacks the role this request needs");
                            }
                        }))
                .build();
    }

    /** The console's policy on every answer, the Swagger UI's own on its pages (see {@link SecurityHeaders}). */
    private static HeaderWriter contentSecurityPolicy() {
        PathPattern swaggerUiPaths = new PathPatternParser().parse("/swagger-ui/**");
        HeaderWriter strict = new ContentSecurityPolicyHeaderWriter(SecurityHeaders.CONTENT_SECURITY_POLICY);
        HeaderWriter swaggerUi =
                new ContentSecurityPolicyHeaderWriter(SecurityHeaders.SWAGGER_UI_CONTENT_SECURITY_POLICY);
        return (request, response) -> (swaggerUiPaths.matches(AccessRules.path(request)) ? swaggerUi : strict)
                .writeHeaders(request, response);
    }

    /**
     * No observation of Spring Security's filters: wrapping each of them for every request cost a
     * tenth of a request's CPU; {@code http.server.requests} still times every request.
     */
    @Bean
    SecurityObservationSettings noSecurityObservations() {
        return SecurityObservationSettings.noObservations();
    }

    /**
     * The provider sandbox (demo runs, tests, the benchmark) stands in for Facebook, LinkedIn and
     * WordPress, which Herald calls from outside its own API; its calls skip Herald's API security
     * altogether, as a provider's would. The paths are open either way; skipping the chain keeps
     * the simulated providers from costing Herald a security pass per call.
     */
    @Bean
    @ConditionalOnProperty(name = "herald.sandbox.enabled", havingValue = "true")
    WebSecurityCustomizer sandboxOutsideApiSecurity() {
        return web -> web.ignoring().requestMatchers("/sandbox/**");
    }

    /** A URL the firewall refuses (encoded dots or slashes, NUL, ...) gets problem+json, not a bare 400. */
    @Bean
    RequestRejectedHandler requestRejectedAsProblem(ProblemResponses problems) {
        return (request, response, rejected) -> {
            response.setHeader(SecurityHeaders.CONTENT_SECURITY_POLICY_HEADER, SecurityHeaders.CONTENT_SECURITY_POLICY);
            problems.write(request, response, ErrorCode.VALIDATION_FAILED,
                    "the request URL is not acceptable");
        };
    }
}
