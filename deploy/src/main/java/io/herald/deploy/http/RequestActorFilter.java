package io.herald.deploy.http;

import io.herald.command.publication.PublicationCommandController;
import io.herald.deploy.axon.AxonProcessingConfiguration;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.MDC;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Names the caller of a request: the one place where authentication plugs in. Until API keys
 * arrive, every caller is {@code anonymous}; controllers read the actor from the request
 * attribute, commands carry it in their metadata.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
public class RequestActorFilter extends OncePerRequestFilter {

    static final String ANONYMOUS = "anonymous";

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String actor = ANONYMOUS;
        request.setAttribute(PublicationCommandController.ACTOR_ATTRIBUTE, actor);
        MDC.put(AxonProcessingConfiguration.ACTOR, actor);
        try {
            chain.doFilter(request, response);
        } finally {
            MDC.remove(AxonProcessingConfiguration.ACTOR);
        }
    }
}
