package io.herald.adapters.port;

/**
 * One text field a connection form or the start of a connect asks for, as a plug-in declares it
 * ({@link FormField} on its form record's component): its request field name, label, whether it is
 * a secret (stored encrypted, never shown again), whether a new connection needs it, and an example
 * (null for none).
 */
public record ConnectField(String name, String label, boolean secret, boolean required, String placeholder) {
}
