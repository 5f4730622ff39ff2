<?php
/**
 * Removes everything the plugin stored: its options, its table, its post meta and its cron events.
 */

defined('WP_UNINSTALL_PLUGIN') || exit;

global $wpdb;

foreach (['herald_publisher_settings', 'herald_publisher_site_id', 'herald_publisher_db_version'] as $option) {
    delete_option($option);
}
wp_clear_scheduled_hook('herald_publisher_dispatch');
wp_clear_scheduled_hook('herald_publisher_dispatch', ['soon']);
$wpdb->query("DROP TABLE IF EXISTS {$wpdb->prefix}herald_dispatch");
$wpdb->query("DELETE FROM {$wpdb->postmeta} WHERE meta_key LIKE '\\_herald\\_publisher\\_%'");
$wpdb->query("DELETE FROM {$wpdb->options} WHERE option_name LIKE '\\_transient\\_herald\\_publisher\\_%'
    OR option_name LIKE '\\_transient\\_timeout\\_herald\\_publisher\\_%'");
