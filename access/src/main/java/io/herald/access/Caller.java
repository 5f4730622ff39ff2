package io.herald.access;

import java.util.Set;

/**
 * Who sent a request: a workspace key or the system key. {@code actor} names it in events, logs
 * and decisions; it never contains the key itself.
 */
public record Caller(String keyId, String workspaceId, String label, Set<Role> roles) {

    public static final String SYSTEM_KEY_ID = "system";

    public Caller {
        roles = Set.copyOf(roles);
    }

    static Caller system() {
        return new Caller(SYSTEM_KEY_ID, null, SYSTEM_KEY_ID, Set.of(Role.SYSTEM));
    }

    public boolean isSystem() {
        return roles.contains(Role.SYSTEM);
    }

    public String actor() {
        return isSystem() ? SYSTEM_KEY_ID : label + "@" + keyId;
    }
}
