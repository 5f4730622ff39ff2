/**
 * From a requested publication to provider calls and their recorded results, with the
 * {@code Publication} aggregate deciding every step: the dispatcher (an event processor) starts
 * the attempts that events make due, in batches whose write-ahead events, timer rows and token
 * commit together; the calls run after that commit; their answers are recorded in batches; the
 * timer sweep fires what is due later (expiry, scheduled start, retry, read-back).
 */
package io.herald.command.publishing;
