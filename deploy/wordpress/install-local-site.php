<?php
/**
 * Installs one local test site of Debian's WordPress package and gives the Herald editor a fresh
 * application password. For tests only: run by .ci/wordpress.sh, never on a real site.
 *
 * Usage: php install-local-site.php <debian-config-name> <editor-login>
 * Prints the new application password on stdout and nothing else.
 * Safe to run again: an installed site is kept, the editor's earlier test password is replaced.
 */

if (PHP_SAPI !== 'cli' || $argc !== 3) {
    fwrite(STDERR, "usage: php install-local-site.php <debian-config-name> <editor-login>\n");
    exit(2);
}
[, $config_name, $editor_login] = $argv;

// Debian's wp-config.php picks /etc/wordpress/config-<name>.php from these.
$_SERVER['WORDPRESS_CONFIG'] = $config_name;
$_SERVER['HTTP_HOST'] = $config_name;
// wp-load.php would otherwise answer "not installed" by redirecting to the install page.
define('WP_INSTALLING', true);

require '/usr/share/wordpress/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';

const HERALD_APP_PASSWORD_NAME = 'herald-live-test';

// A test site has no mail server; the install's notification mails would only print errors.
add_filter('pre_wp_mail', '__return_false');

if (!is_blog_installed()) {
    $installed = wp_install('Herald test site ' . $config_name, 'admin', 'admin@example.invalid', false, '', wp_generate_password(32));
    if (empty($installed['user_id'])) {
        fwrite(STDERR, "wp_install failed\n");
        exit(1);
    }
}

// Pretty permalinks, so /wp-json/... works as well as ?rest_route=...; the rules are rebuilt on the next request.
update_option('permalink_structure', '/%postname%/');
delete_option('rewrite_rules');

$editor = get_user_by('login', $editor_login);
if (!$editor) {
    $editor_id = wp_insert_user([
        'user_login' => $editor_login,
        'user_pass' => wp_generate_password(32),
        'user_email' => $editor_login . '@example.invalid',
        'role' => 'editor',
    ]);
    if (is_wp_error($editor_id)) {
        fwrite(STDERR, 'creating the editor failed: ' . $editor_id->get_error_message() . "\n");
        exit(1);
    }
    $editor = get_user_by('id', $editor_id);
}

foreach (WP_Application_Passwords::get_user_application_passwords($editor->ID) as $item) {
    if ($item['name'] === HERALD_APP_PASSWORD_NAME) {
        WP_Application_Passwords::delete_application_password($editor->ID, $item['uuid']);
    }
}
$created = WP_Application_Passwords::create_new_application_password($editor->ID, ['name' => HERALD_APP_PASSWORD_NAME]);
if (is_wp_error($created)) {
    fwrite(STDERR, 'creating the application password failed: ' . $created->get_error_message() . "\n");
    exit(1);
}
echo $created[0];
