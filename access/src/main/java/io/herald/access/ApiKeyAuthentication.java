package io.herald.access;

import org.springframework.security.authentication.AbstractAuthenticationToken;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/** A request authenticated by an API key; the raw key is not kept. */
final class ApiKeyAuthentication extends AbstractAuthenticationToken {

    private final Caller caller;

    ApiKeyAuthentication(Caller caller) {
        super(caller.roles().stream().map(r -> new SimpleGrantedAuthority("ROLE_" + r.name())).toList());
        this.caller = caller;
        setAuthenticated(true);
    }

    @Override
    public Object getCredentials() {
        return "";
    }

    @Override
    public Caller getPrincipal() {
        return caller;
    }

    @Override
    public String getName() {
        return caller.actor();
    }
}
