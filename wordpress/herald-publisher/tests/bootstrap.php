<?php
/**
 * The plugin's pure parts (ids, text, signatures, outcomes, request bodies) without WordPress.
 */

define('HERALD_PUBLISHER_TESTING', true);

foreach (['ids', 'text', 'signatures', 'outcome', 'request'] as $part) {
    require_once dirname(__DIR__) . '/includes/class-herald-publisher-' . $part . '.php';
}
