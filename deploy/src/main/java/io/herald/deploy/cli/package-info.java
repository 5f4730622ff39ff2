/**
 * Command-line modes of the Herald jar, run instead of the server: {@code audit verify} and {@code audit verify-export}.
 */
package io.herald.deploy.cli;
