/**
 * The language every Herald module speaks: commands, events, ids, enums and error codes as plain
 * Java records. Depends on nothing but Axon's and Jackson's annotations, so any module (and any
 * auditor's tool) can read the history without pulling in the rest of Herald.
 */
package io.herald.contracts;
