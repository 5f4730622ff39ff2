/**
 * The operator console at {@code /console}: a server-rendered shell with a small script that reads
 * and decides through Herald's own JSON API, so it sees exactly what API clients see and needs no
 * build chain or external asset.
 */
package io.herald.query.console;
