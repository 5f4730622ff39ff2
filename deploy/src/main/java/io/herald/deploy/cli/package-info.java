/**
 * Command-line modes of the Herald jar, run instead of the server: {@code audit verify}.
 */
package io.herald.deploy.cli;
