<?php
/**
 * Plugin Name:       Herald Publisher
 * Description:       Shares each new post to your social channels through Herald, exactly once: captured once, sent signed, retried safely, and its state reported back.
 * Version:           1.1.0
 * Requires at least: 6.0
 * Requires PHP:      7.4
 * Author:            Herald
 * License:           GPL-2.0-or-later
 * License URI:       https://www.gnu.org/licenses/gpl-2.0.html
 * Text Domain:       herald-publisher
 * Domain Path:       /languages
 */

defined('ABSPATH') || exit;

const HERALD_PUBLISHER_VERSION = '1.1.0';

foreach (['ids', 'text', 'signatures', 'outcome', 'request', 'settings', 'store', 'client', 'capture', 'dispatcher',
             'rest', 'editor', 'admin'] as $herald_publisher_part) {
    require_once __DIR__ . '/includes/class-herald-publisher-' . $herald_publisher_part . '.php';
}

add_action('init', static function () {
    load_plugin_textdomain('herald-publisher', false, dirname(plugin_basename(__FILE__)) . '/languages');
    Herald_Publisher_Settings::register();
    Herald_Publisher_Editor::register_meta();
    // a copy that was updated in place gets its table changes without a reactivation
    if (get_option(Herald_Publisher_Store::DB_VERSION_OPTION) !== Herald_Publisher_Store::DB_VERSION) {
        Herald_Publisher_Store::install();
    }
}, 5);

Herald_Publisher_Capture::register();
Herald_Publisher_Dispatcher::register();
Herald_Publisher_Rest::register();
if (is_admin()) {
    Herald_Publisher_Editor::register();
    Herald_Publisher_Admin::register();
}

register_activation_hook(__FILE__, static function () {
    Herald_Publisher_Store::install();
    // generated once; deactivation keeps it, so the site's calendar entry ids stay the same
    Herald_Publisher_Settings::site_id();
    Herald_Publisher_Dispatcher::ensure_scheduled();
});

register_deactivation_hook(__FILE__, [Herald_Publisher_Dispatcher::class, 'unschedule']);
