package io.herald.platform.web;

/** Request attributes the access filters set and the controllers read. */
public final class RequestAttributes {

    /** Who acts: the authenticated key's actor name. */
    public static final String ACTOR = "herald.actor";

    private RequestAttributes() {
    }
}
