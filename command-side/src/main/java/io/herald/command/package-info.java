/**
 * The write side of Herald: the {@code Publication} and {@code ChannelConnection} aggregates, the
 * HTTP endpoints that turn requests into commands, and (in {@code publishing}) the dispatcher,
 * the timer rows and their sweep that turn the publication's decisions into provider calls.
 */
package io.herald.command;
