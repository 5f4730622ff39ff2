/**
 * Webhook deliveries (docs/api.md#webhooks): the outbox written with the publication view, the
 * subscriptions as the projection sees them, the delivery log and redelivery. Sending is not
 * here: it needs the subscriptions' secrets and the outbound guard, which the query side does
 * not see (docs/architecture.md#modules); the application wires a sender that uses {@link WebhookOutbox}.
 */
package io.herald.query.webhook;
