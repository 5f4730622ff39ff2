package io.herald.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;

/** The rules' decisions where a running application cannot easily show them: the sandbox off, and path spellings. */
class AccessRulesTest {

    private static final Caller PUBLISHER = new Caller("k_1", "aA", "calendar", Set.of(Role.PUBLISHER));

    @Test
    void theSandboxIsOpenOnlyWhenItIsOn() {
        MockHttpServletRequest reset = request("POST", "/sandbox/_admin/reset");
        assertThat(new AccessRules(true).isOpen(reset)).isTrue();
        assertThat(new AccessRules(false).isOpen(reset)).isFalse();
        assertThat(allowed(new AccessRules(false), reset, PUBLISHER)).isFalse();
        assertThat(reset.getAttribute(AccessRules.UNLISTED_ATTRIBUTE)).isEqualTo(Boolean.TRUE);
    }

    @Test
    void openPathsAreOpenForReadingOnly() {
        AccessRules rules = new AccessRules(false);
        assertThat(rules.isOpen(request("GET", "/actuator/health"))).isTrue();
        assertThat(rules.isOpen(request("HEAD", "/actuator/health/liveness"))).isTrue();
        assertThat(rules.isOpen(request("POST", "/actuator/health"))).isFalse();
        assertThat(rules.isOpen(request("DELETE", "/console"))).isFalse();
        assertThat(rules.isOpen(request("GET", "/actuator/metrics"))).isFalse();
        assertThat(rules.isOpen(request("GET", "/error"))).isFalse();
    }

    @Test
    void pathsAreMatchedDecodedOnceWithoutParametersOrDoubleSlashes() {
        AccessRules rules = new AccessRules(false);
        assertThat(rules.isOpen(request("GET", "/%61ctuator/health"))).isTrue();
        assertThat(allowed(rules, request("GET", "/api/v1/workspaces/aA/%70ublications"), PUBLISHER)).isTrue();
        assertThat(allowed(rules, request("GET", "/api/v1/workspaces/aA/publications;x=1"), PUBLISHER)).isTrue();
        assertThat(allowed(rules, request("GET", "/api//v1/workspaces/aA/publications"), PUBLISHER)).isTrue();
        // decoded twice, a%2541 would be aA: the caller's own workspace
        MockHttpServletRequest twice = request("GET", "/api/v1/workspaces/a%2541/publications");
        assertThat(allowed(rules, twice, PUBLISHER)).isFalse();
        assertThat(twice.getAttribute(AccessRules.HIDDEN_ATTRIBUTE)).as("another workspace's path").isEqualTo(true);
    }

    private static MockHttpServletRequest request(String method, String uri) {
        MockHttpServletRequest request = new MockHttpServletRequest(method, uri);
        request.setRequestURI(uri);
        return request;
    }

    private static boolean allowed(AccessRules rules, MockHttpServletRequest request, Caller caller) {
        Authentication key = new ApiKeyAuthentication(caller);
        return rules.check(() -> key, new RequestAuthorizationContext(request)).isGranted();
    }
}
