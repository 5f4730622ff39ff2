package io.herald.contracts.channel;

import java.time.Instant;

/**
 * A connection's budget as {@code GET …/channels} shows it: its tightest window.
 *
 * @param remaining attempts the connection may still start in the window (0 while a provider's rate-limit
 *                  answer holds it)
 * @param resetsAt  when the window ends, or the provider's wait does; null for a window not yet begun
 * @param source    {@code quota} (a documented limit), {@code usage-headers} (a configured budget the provider's
 *                  usage headers keep) or {@code rate-limit-headers} (what the provider answered)
 */
public record BudgetView(Integer remaining, Instant resetsAt, String source) {
}
