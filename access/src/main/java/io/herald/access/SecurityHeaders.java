package io.herald.access;

/**
 * The Content-Security-Policy of every answer: the console loads its script and style from
 * Herald itself, nothing inline, no plugins, and no page may frame it. API answers carry it too,
 * so a JSON or problem answer opened in a browser can run nothing.
 */
public final class SecurityHeaders {

    public static final String CONTENT_SECURITY_POLICY_HEADER = "Content-Security-Policy";
    public static final String CONTENT_SECURITY_POLICY =
            "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

    /**
     * The Swagger UI (springdoc's bundle) runs no inline script, but inserts one {@code <style>}
     * element and draws its icons as {@code data:} images; under the policy above the page works
     * with broken styling. Its own policy allows just those two; scripts stay {@code 'self'}.
     */
    public static final String SWAGGER_UI_CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self';"
            + " style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none';"
            + " frame-ancestors 'none'";

    private SecurityHeaders() {
    }
}
