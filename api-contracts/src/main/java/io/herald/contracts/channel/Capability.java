package io.herald.contracts.channel;

/** Whether a connection can do something (publish, read back), and if not, why in an operator's words. */
public record Capability(boolean available, String reason) {

    public static Capability ok() {
        return new Capability(true, null);
    }

    public static Capability unavailable(String reason) {
        return new Capability(false, reason);
    }
}
