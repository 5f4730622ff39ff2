<?php
/**
 * Installs one local test site of Debian's WordPress package and gives a test user (an editor
 * unless another role is named) a fresh application password. For tests only: run by
 * .ci/wordpress.sh, never on a real site.
 *
 * Usage: php install-local-site.php <debian-config-name> <login> [editor|contributor]
 * Prints the new application password on stdout and nothing else.
 * Safe to run again: an installed site is kept, the user's earlier test password is replaced.
 */

if (PHP_SAPI !== 'cli' || $argc < 3 || $argc > 4) {
    fwrite(STDERR, "usage: php install-local-site.php <debian-config-name> <login> [editor|contributor]\n");
    exit(2);
}
[$config_name, $login] = [$argv[1], $argv[2]];
$role = $argv[3] ?? 'editor';
if (!in_array($role, ['editor', 'contributor'], true)) {
    fwrite(STDERR, "the role must be editor or contributor\n");
    exit(2);
}

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

$user = get_user_by('login', $login);
if (!$user) {
    $user_id = wp_insert_user([
        'user_login' => $login,
        'user_pass' => wp_generate_password(32),
        'user_email' => $login . '@example.invalid',
        'role' => $role,
    ]);
    if (is_wp_error($user_id)) {
        fwrite(STDERR, 'creating the ' . $role . ' failed: ' . $user_id->get_error_message() . "\n");
        exit(1);
    }
    $user = get_user_by('id', $user_id);
}

foreach (WP_Application_Passwords::get_user_application_passwords($user->ID) as $item) {
    if ($item['name'] === HERALD_APP_PASSWORD_NAME) {
        WP_Application_Passwords::delete_application_password($user->ID, $item['uuid']);
    }
}
$created = WP_Application_Passwords::create_new_application_password($user->ID, ['name' => HERALD_APP_PASSWORD_NAME]);
if (is_wp_error($created)) {
    fwrite(STDERR, 'creating the application password failed: ' . $created->get_error_message() . "\n");
    exit(1);
}
echo $created[0];
