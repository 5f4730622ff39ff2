/**
 * The auditor's view of the event store: each publication's stream, the whole store (or one
 * workspace's part of it) as NDJSON, and a verifier that replays every publication stream against
 * rules 1–5 of docs/architecture.md#rules-an-auditor-can-check, and the export's hash chain with its signed checkpoints (docs/audit.md).
 * Reads {@code domain_event_entry} directly and never writes it.
 */
package io.herald.query.audit;
