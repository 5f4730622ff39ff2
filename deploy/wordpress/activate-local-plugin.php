<?php
/**
 * Activates a plugin on one local test site (tests only, run by .ci/wordpress.sh after the site is
 * installed). Activation runs the plugin's activation hook, as a click on "Activate" would.
 *
 * Usage: php activate-local-plugin.php <debian-config-name> <plugin folder/main file>
 * Safe to run again: an active plugin is activated again, which its hook must tolerate.
 */

if (PHP_SAPI !== 'cli' || $argc !== 3) {
    fwrite(STDERR, "usage: php activate-local-plugin.php <debian-config-name> <plugin folder/main file>\n");
    exit(2);
}
// Debian's wp-config.php picks /etc/wordpress/config-<name>.php from these.
$_SERVER['WORDPRESS_CONFIG'] = $argv[1];
$_SERVER['HTTP_HOST'] = $argv[1];

require '/usr/share/wordpress/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';

$result = activate_plugin($argv[2], '', false, false);
if (is_wp_error($result)) {
    fwrite(STDERR, 'activating ' . $argv[2] . ' failed: ' . $result->get_error_message() . "\n");
    exit(1);
}
