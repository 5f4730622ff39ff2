/**
 * The write side of Herald: the {@code Publication} and {@code ChannelConnection} aggregates, the
 * HTTP endpoints that turn requests into commands, and (in {@code publishing}) the saga that
 * drives provider calls.
 */
package io.herald.command;
