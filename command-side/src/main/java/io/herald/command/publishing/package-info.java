/**
 * The publishing saga: from a requested publication to provider calls and their recorded
 * results, with retries only where the request provably did not execute. The saga decides
 * <em>when</em> an attempt is due; {@link io.herald.command.publishing.Attempts} runs it off the
 * event-processing thread, strictly write-ahead: StartAttempt is committed before the provider is
 * called, and only the receiver of StartAttempt's result calls it.
 */
package io.herald.command.publishing;
